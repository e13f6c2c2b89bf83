/**
 * The designer's live preview: the draft drawn by the service's real renderer (PNG), asked for once the user stops
 * typing for a moment; an older answer never replaces a newer one.
 */
import { useEffect, useState } from 'react';
import type { CertificateSchemas } from '../../api/types';
import { errorMessage } from '../../ui/problems';
import { previewTemplate } from './templates-api';

const DEBOUNCE_MS = 600;

export function TemplatePreview({ draft }: { draft: CertificateSchemas['NewTemplate'] }) {
  const [image, setImage] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const key = JSON.stringify(draft);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewTemplate(JSON.parse(key) as CertificateSchemas['NewTemplate'], controller.signal)
        .then((blob) => {
          setProblem(null);
          setImage((previous) => {
            if (previous) URL.revokeObjectURL(previous);
            return URL.createObjectURL(blob);
          });
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setProblem(errorMessage(error));
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);
  return (
    <figure className="card template-preview" data-testid="template-preview" aria-busy={image ? undefined : true}>
      <figcaption>Preview, drawn by the certificate renderer with sample values</figcaption>
      {image ? <img src={image} alt="Preview of the certificate this template draws" data-testid="template-preview-image" /> : <p role="status">Drawing the preview…</p>}
      {problem && <p className="field-error">The preview could not be drawn: {problem}</p>}
    </figure>
  );
}
