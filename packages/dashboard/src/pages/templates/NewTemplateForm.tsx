/**
 * A template from a few choices: page, font, colours, an optional logo and three lines of text that may use the
 * placeholders. The positions follow a fixed layout (title, recipient, details; QR code bottom right, logo top left).
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { CertificateSchemas, Template } from '../../api/types';
import { SelectField, TextField } from '../../ui/fields';
import { FormError } from '../../ui/FormError';
import { createTemplate, readBase64 } from './templates-api';
import { TemplatePreview } from './TemplatePreview';

type NewTemplate = CertificateSchemas['NewTemplate'];

const INITIAL = {
  name: '',
  page_size: 'A4',
  orientation: 'landscape',
  font: 'serif',
  background: '#FFFFFF',
  text: '#1F2933',
  accent: '#1D4ED8',
  title: 'Certificate of Completion',
  recipient: '{{recipient_name}}',
  details: '{{program_title}} — {{issue_date}}',
};

export function templateBody(form: typeof INITIAL, logo?: string): NewTemplate {
  const block = (text: string, y: number, fontSize: number, bold: boolean, color?: string) => ({
    text, x: 0.1, y, width: 0.8, font_size: fontSize, bold, align: 'center' as const, ...(color ? { color } : {}),
  });
  return {
    name: form.name,
    page_size: form.page_size as NewTemplate['page_size'],
    orientation: form.orientation as NewTemplate['orientation'],
    font: form.font as NewTemplate['font'],
    colors: { background: form.background.toUpperCase(), text: form.text.toUpperCase(), accent: form.accent.toUpperCase() },
    text_blocks: [block(form.title, 0.2, 36, true, form.accent.toUpperCase()), block(form.recipient, 0.42, 30, true), block(form.details, 0.6, 18, false)],
    custom_fields: [],
    qr_code: { x: 0.83, y: 0.7, size: 0.12 },
    logo_placement: { x: 0.05, y: 0.05, width: 0.15 },
    date_format: 'long',
    frame: { style: 'none' },
    signature_placement: { x: 0.08, y: 0.72, width: 0.2 },
    ...(logo ? { logo: { data: logo } } : {}),
  };
}

export function NewTemplateForm({ onCreated }: { onCreated: (template: Template) => void }) {
  const logoId = useId();
  const [form, setForm] = useState(INITIAL);
  const [logo, setLogo] = useState<File | null>(null);
  const [logoData, setLogoData] = useState<string | undefined>(undefined);
  const mutation = useMutation({
    mutationFn: async () => createTemplate(templateBody(form, logo ? await readBase64(logo) : undefined)),
    onSuccess: (template) => {
      setForm(INITIAL);
      onCreated(template);
    },
  });
  const set = (field: keyof typeof INITIAL) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const error = mutation.error;
  return (
    <form onSubmit={submit} noValidate aria-label="Create a template" className="card">
      <h2>Create a template</h2>
      <FormError error={error} fields={['name', 'page_size', 'orientation', 'font', 'colors', 'text_blocks', 'logo']} />
      <TextField label="Template name" name="name" required value={form.name} error={error} onChange={set('name')} />
      <SelectField label="Page size" name="page_size" value={form.page_size} error={error} onChange={set('page_size')}
        options={[{ value: 'A4', label: 'A4' }, { value: 'letter', label: 'Letter' }]} />
      <SelectField label="Orientation" name="orientation" value={form.orientation} error={error} onChange={set('orientation')}
        options={[{ value: 'landscape', label: 'Landscape' }, { value: 'portrait', label: 'Portrait' }]} />
      <SelectField label="Font" name="font" value={form.font} error={error} onChange={set('font')}
        options={[{ value: 'serif', label: 'Serif' }, { value: 'sans', label: 'Sans' }, { value: 'mono', label: 'Mono' }]} />
      <TextField label="Background colour" name="colors.background" type="color" value={form.background} error={error} onChange={set('background')} />
      <TextField label="Text colour" name="colors.text" type="color" value={form.text} error={error} onChange={set('text')} />
      <TextField label="Accent colour" name="colors.accent" type="color" value={form.accent} error={error} onChange={set('accent')} />
      <p className="hint">
        Lines may use <code>{'{{recipient_name}}'}</code>, <code>{'{{program_title}}'}</code>, <code>{'{{issue_date}}'}</code>,{' '}
        <code>{'{{certificate_number}}'}</code> and <code>{'{{verification_url}}'}</code>.
      </p>
      <TextField label="Title line" name="text_blocks.0.text" required value={form.title} error={error} onChange={set('title')} />
      <TextField label="Recipient line" name="text_blocks.1.text" required value={form.recipient} error={error} onChange={set('recipient')} />
      <TextField label="Details line" name="text_blocks.2.text" required value={form.details} error={error} onChange={set('details')} />
      <div className="field">
        <label htmlFor={logoId}>Logo (PNG or JPEG, optional)</label>
        <input id={logoId} type="file" accept="image/png,image/jpeg" onChange={(event) => {
          const file = event.target.files?.[0] ?? null;
          setLogo(file);
          if (file) void readBase64(file).then(setLogoData);
          else setLogoData(undefined);
        }} />
      </div>
      <button type="submit" disabled={mutation.isPending}>
        Create template
      </button>
      <TemplatePreview draft={templateBody({ ...form, name: form.name || 'Preview' }, logoData)} />
    </form>
  );
}
