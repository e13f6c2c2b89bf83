/**
 * The designer's form as plain values, and the request bodies made from it: a new template (`NewTemplate`) or the
 * update that makes its next version (`TemplateUpdate`). The layout is fixed: the logo centred at the top, the title,
 * the recipient and the details lines below it, the signature bottom left and the QR code bottom right.
 */
import type { CertificateSchemas, Template } from '../../api/types';

type NewTemplate = CertificateSchemas['NewTemplate'];
type TemplateUpdate = CertificateSchemas['TemplateUpdate'];
export type DateFormat = NewTemplate['date_format'] & string;
export type FrameStyle = NonNullable<NewTemplate['frame']>['style'];

export interface DesignerForm {
  name: string;
  page_size: string;
  orientation: string;
  font: string;
  background: string;
  text: string;
  accent: string;
  title: string;
  recipient: string;
  details: string;
  issuer_name: string;
  date_format: DateFormat;
  frame: FrameStyle;
  signature_label: string;
}

/** An image field's state: unchanged (kept as the template has it), a new file's base64, or removed. */
export type ImageChoice = { kind: 'keep' } | { kind: 'new'; data: string } | { kind: 'remove' };
export const KEEP: ImageChoice = { kind: 'keep' };

export interface DesignerImages {
  logo: ImageChoice;
  signature: ImageChoice;
}

export const INITIAL_FORM: DesignerForm = {
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
  issuer_name: '',
  date_format: 'long',
  frame: 'none',
  signature_label: '',
};

/** The choices offered, each with what it looks like (dates as 1 March 2026 would be written). */
export const DATE_FORMAT_CHOICES: { value: DateFormat; label: string }[] = [
  { value: 'long', label: '1 March 2026' },
  { value: 'us', label: 'March 1, 2026' },
  { value: 'iso', label: '2026-03-01' },
  { value: 'us_numeric', label: '03/01/2026' },
];
export const FRAME_CHOICES: { value: FrameStyle; label: string }[] = [
  { value: 'none', label: 'No border' },
  { value: 'single', label: 'Single line' },
  { value: 'double', label: 'Double line' },
];

/** Where the designer puts things, as fractions of the page. The logo sits above the title, never beside it. */
export const DESIGNER_LAYOUT = {
  logo: { x: 0.44, y: 0.07, width: 0.12 },
  lines: { x: 0.1, width: 0.8, title: 0.3, recipient: 0.47, details: 0.62 },
  qr_code: { x: 0.83, y: 0.7, size: 0.12 },
  signature: { x: 0.08, y: 0.72, width: 0.2 },
} as const;

type TextBlock = NewTemplate['text_blocks'][number];

function textBlocks(form: DesignerForm): TextBlock[] {
  const { lines } = DESIGNER_LAYOUT;
  const block = (text: string, y: number, fontSize: number, bold: boolean, color?: string): TextBlock => ({
    text, x: lines.x, y, width: lines.width, font_size: fontSize, bold, align: 'center', ...(color ? { color } : {}),
  });
  return [
    block(form.title, lines.title, 36, true, form.accent.toUpperCase()),
    block(form.recipient, lines.recipient, 30, true),
    block(form.details, lines.details, 18, false),
  ];
}

/** The designer's lines' font sizes, title first: how its three lines are told apart wherever they were dragged. */
const LINE_FONT_SIZES = [36, 30, 18];

/**
 * Whether a template's text is the designer's three lines (else its text was laid out through the API, and is kept):
 * three centred lines at the designer's font sizes, wherever they were placed (the designer lets them be dragged).
 */
export function hasDesignerLines(template: Pick<Template, 'text_blocks'>): boolean {
  return template.text_blocks.length === 3 && template.text_blocks.every((block, index) => block.align === 'center' && block.font_size === LINE_FONT_SIZES[index]);
}

/** The form showing a template's current version. */
export function formFromTemplate(template: Template): DesignerForm {
  const [title, recipient, details] = template.text_blocks;
  return {
    name: template.name,
    page_size: template.page_size,
    orientation: template.orientation,
    font: template.font,
    background: template.colors.background,
    text: template.colors.text,
    accent: template.colors.accent,
    title: title?.text ?? '',
    recipient: recipient?.text ?? '',
    details: details?.text ?? '',
    issuer_name: template.issuer_name ?? '',
    date_format: template.date_format,
    frame: template.frame.style,
    signature_label: template.signature_label ?? '',
  };
}

/** The fields every body carries, new template or update. */
function designFields(form: DesignerForm) {
  return {
    name: form.name,
    page_size: form.page_size as NewTemplate['page_size'],
    orientation: form.orientation as NewTemplate['orientation'],
    font: form.font as NewTemplate['font'],
    colors: { background: form.background.toUpperCase(), text: form.text.toUpperCase(), accent: form.accent.toUpperCase() },
    date_format: form.date_format,
    frame: { style: form.frame },
  };
}

/** A new template from the form; blank optional texts and images not chosen are left out. */
export function newTemplateBody(form: DesignerForm, images: DesignerImages): NewTemplate {
  return {
    ...designFields(form),
    text_blocks: textBlocks(form),
    custom_fields: [],
    qr_code: { ...DESIGNER_LAYOUT.qr_code },
    logo_placement: { ...DESIGNER_LAYOUT.logo },
    signature_placement: { ...DESIGNER_LAYOUT.signature },
    ...(form.issuer_name.trim() ? { issuer_name: form.issuer_name.trim() } : {}),
    ...(form.signature_label.trim() ? { signature_label: form.signature_label.trim() } : {}),
    ...(images.logo.kind === 'new' ? { logo: { data: images.logo.data } } : {}),
    ...(images.signature.kind === 'new' ? { signature_image: { data: images.signature.data } } : {}),
  };
}

/**
 * The update making the next version: every design field as the form has it (a blank issuer name or signature label
 * removes it), the designer's lines and placements only where the template uses them, images only where changed.
 */
export function templateUpdateBody(form: DesignerForm, images: DesignerImages, template: Pick<Template, 'text_blocks'>): TemplateUpdate {
  const image = (choice: ImageChoice) => (choice.kind === 'new' ? { data: choice.data } : choice.kind === 'remove' ? null : undefined);
  const update: TemplateUpdate = {
    ...designFields(form),
    issuer_name: form.issuer_name.trim() || null,
    signature_label: form.signature_label.trim() || null,
    ...(hasDesignerLines(template)
      ? { text_blocks: textBlocks(form), logo_placement: { ...DESIGNER_LAYOUT.logo }, signature_placement: { ...DESIGNER_LAYOUT.signature } }
      : {}),
  };
  const logo = image(images.logo);
  const signature = image(images.signature);
  if (logo !== undefined) update.logo = logo;
  if (signature !== undefined) update.signature_image = signature;
  return update;
}
