/**
 * The template designer: page, font, colours, the issuer named on the document, the date format, the border, a logo
 * and a signature image (with its label), and three lines of text with placeholders; beside it, the live preview drawn
 * by the service's real renderer. Creating makes version 1; saving an existing template makes its next version.
 * Field errors (from saving, or from the preview's check) are shown beside their fields. Over the preview, each block
 * (the lines, the logo, the signature, the QR code) is a handle to drag, resize or move with the arrow keys.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Template } from '../../api/types';
import { useSession } from '../../auth/session';
import { CardForm } from '../../ui/CardForm';
import { SelectField, TextField } from '../../ui/fields';
import { defaultLayout, layoutFromTemplate, pageSize, withLayout, BLOCK_IDS, type BlockId, type Layout, type Placement } from './designer-layout';
import { DesignerOverlay } from './DesignerOverlay';
import { ImageField } from './ImageField';
import { DATE_FORMAT_CHOICES, FRAME_CHOICES, formFromTemplate, hasDesignerLines, INITIAL_FORM, KEEP, newTemplateBody, templateUpdateBody, type DesignerForm, type DesignerImages } from './template-form';
import { createTemplate, previewTemplate, previewTemplateUpdate, updateTemplate } from './templates-api';
import { TemplatePreview } from './TemplatePreview';
import { useLivePreview } from './useLivePreview';

const FIELDS = ['name', 'page_size', 'orientation', 'font', 'colors', 'text_blocks', 'issuer_name', 'date_format', 'frame', 'signature_label', 'logo', 'signature_image'];

function imageLine(meta: Template['logo']): string | null {
  return meta ? `${meta.width} × ${meta.height} ${meta.content_type === 'image/png' ? 'PNG' : 'JPEG'}` : null;
}

/** `template` absent: a new template. Present: its current version, edited into the next. */
export function TemplateDesigner({ template, onSaved }: { template?: Template; onSaved: (template: Template) => void }) {
  const organizationName = useSession().session?.organization?.name;
  const [form, setForm] = useState<DesignerForm>(() => (template ? formFromTemplate(template) : INITIAL_FORM));
  const [images, setImages] = useState<DesignerImages>({ logo: KEEP, signature: KEEP });
  const [layout, setLayout] = useState<Layout>(() => (template ? layoutFromTemplate(template) : defaultLayout()));
  const linesEditable = !template || hasDesignerLines(template);
  const page = pageSize(form.page_size, form.orientation);
  const place = (id: BlockId, placement: Placement) => setLayout((now) => ({ ...now, [id]: placement }));
  // A template laid out through the API keeps its layout as it is (no handles; nothing of it sent).
  const updateBody = (current: Template) => (linesEditable ? withLayout(templateUpdateBody(form, images, current), layout) : templateUpdateBody(form, images, current));

  const body = template ? updateBody(template) : withLayout(newTemplateBody({ ...form, name: form.name || 'Preview' }, images), layout);
  const preview = useLivePreview(body, (draft, signal) =>
    template ? previewTemplateUpdate(template.id, draft as Parameters<typeof previewTemplateUpdate>[1], signal) : previewTemplate(draft as Parameters<typeof previewTemplate>[0], signal),
  );
  const mutation = useMutation({
    mutationFn: () => (template ? updateTemplate(template.id, updateBody(template)) : createTemplate(withLayout(newTemplateBody(form, images), layout))),
    onSuccess: (saved) => {
      if (!template) {
        setForm(INITIAL_FORM);
        setImages({ logo: KEEP, signature: KEEP });
        setLayout(defaultLayout());
      }
      onSaved(saved);
    },
  });
  // Saving's errors first; else what the preview's check found, beside the same fields.
  const error = mutation.error ?? preview.error;
  const set = (field: keyof DesignerForm) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const label = template ? 'Edit the template' : 'Create a template';

  return (
    <div className="designer">
      <CardForm dataMode="shared" label={label} title={template ? `Edit (saving makes version ${template.version + 1})` : 'Create a template'} error={mutation.error} fields={FIELDS} onSubmit={() => mutation.mutate()}>
        <TextField label="Template name" name="name" required value={form.name} error={error} onChange={set('name')} />
        <TextField label="Issuer name (optional)" name="issuer_name" value={form.issuer_name} error={error} onChange={set('issuer_name')}
          hint={`Named on the document as "Issued by …"; blank: ${organizationName ?? 'the organization'}.`} />
        <SelectField label="Date format" name="date_format" value={form.date_format} error={error} onChange={set('date_format')} options={DATE_FORMAT_CHOICES} />
        <SelectField label="Border" name="frame" value={form.frame} error={error} onChange={set('frame')} options={FRAME_CHOICES} />
        <SelectField label="Page size" name="page_size" value={form.page_size} error={error} onChange={set('page_size')}
          options={[{ value: 'A4', label: 'A4' }, { value: 'letter', label: 'Letter' }]} />
        <SelectField label="Orientation" name="orientation" value={form.orientation} error={error} onChange={set('orientation')}
          options={[{ value: 'landscape', label: 'Landscape' }, { value: 'portrait', label: 'Portrait' }]} />
        <SelectField label="Font" name="font" value={form.font} error={error} onChange={set('font')}
          options={[{ value: 'serif', label: 'Serif' }, { value: 'sans', label: 'Sans' }, { value: 'mono', label: 'Mono' }]} />
        <TextField label="Background colour" name="colors.background" type="color" value={form.background} error={error} onChange={set('background')} />
        <TextField label="Text colour" name="colors.text" type="color" value={form.text} error={error} onChange={set('text')} />
        <TextField label="Accent colour" name="colors.accent" type="color" value={form.accent} error={error} onChange={set('accent')} />
        {linesEditable ? (
          <>
            <p className="hint">
              Lines may use <code>{'{{recipient_name}}'}</code>, <code>{'{{program_title}}'}</code>, <code>{'{{issue_date}}'}</code>,{' '}
              <code>{'{{issuer_name}}'}</code>, <code>{'{{certificate_number}}'}</code> and <code>{'{{verification_url}}'}</code>.
            </p>
            <TextField label="Title line" name="text_blocks.0.text" required value={form.title} error={error} onChange={set('title')} />
            <TextField label="Recipient line" name="text_blocks.1.text" required value={form.recipient} error={error} onChange={set('recipient')} />
            <TextField label="Details line" name="text_blocks.2.text" required value={form.details} error={error} onChange={set('details')} />
          </>
        ) : (
          <p className="hint" data-testid="api-layout">This template's text was laid out through the API: it is kept as it is; the other choices here apply.</p>
        )}
        <ImageField label="Logo (PNG or JPEG, at most 1 MiB, optional)" name="logo" current={imageLine(template?.logo ?? null)} error={error}
          onChange={(logo) => setImages((now) => ({ ...now, logo }))} />
        <ImageField label="Signature image (PNG or JPEG, at most 1 MiB, optional)" name="signature_image" current={imageLine(template?.signature_image ?? null)} error={error}
          onChange={(signature) => setImages((now) => ({ ...now, signature }))} />
        <TextField label="Signature label (optional)" name="signature_label" value={form.signature_label} error={error} onChange={set('signature_label')}
          hint='Printed under the signature, e.g. "Amaka Obi, Programme Director".' />
        <button type="submit" disabled={mutation.isPending}>
          {template ? `Save as version ${template.version + 1}` : 'Create template'}
        </button>
      </CardForm>
      <TemplatePreview preview={preview} aspect={page.width / page.height}
        overlay={linesEditable ? <DesignerOverlay layout={layout} page={page} blocks={BLOCK_IDS} onChange={place} /> : null} />
    </div>
  );
}
