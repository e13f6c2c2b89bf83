/**
 * The designer's live preview as people see it: the certificate renderer's drawing of the draft, a note while a new
 * one is being drawn (the previous drawing stays until then), and why it could not be drawn. `overlay` (the designer's
 * drag handles) lies over the drawing, on a stage with the page's proportions (`aspect`, width / height).
 */
import type { ReactNode } from 'react';
import { fieldProblems, errorMessage } from '../../ui/problems';
import type { LivePreview } from './useLivePreview';

export function TemplatePreview({ preview, overlay, aspect }: { preview: LivePreview; overlay?: ReactNode; aspect?: number }) {
  const { image, loading, error } = preview;
  const fieldsNamed = fieldProblems(error).length > 0;
  return (
    <figure className="card template-preview" data-testid="template-preview" aria-busy={loading ? true : undefined}>
      <figcaption>Preview, drawn by the certificate renderer with sample values</figcaption>
      <p role="status" className="hint" data-testid="template-preview-status">
        {loading ? (image ? 'Updating the preview…' : 'Drawing the preview…') : error ? '' : 'Preview up to date.'}
      </p>
      <div className="template-preview-stage" style={aspect ? { aspectRatio: String(aspect) } : undefined}>
        {image && (
          <img src={image} alt="Preview of the certificate this template draws" data-testid="template-preview-image" className={loading || error ? 'stale' : undefined} />
        )}
        {overlay}
      </div>
      {error ? (
        <p className="field-error" data-testid="template-preview-error">
          {fieldsNamed ? 'The preview could not be drawn: fix the fields marked above.' : `The preview could not be drawn: ${errorMessage(error)}`}
        </p>
      ) : null}
    </figure>
  );
}
