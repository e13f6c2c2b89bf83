import { z } from 'zod';
import { BUILT_IN_PLACEHOLDERS, placeholdersIn } from './template-placeholders';

/** The fixed font list: DejaVu Sans, DejaVu Serif and DejaVu Sans Mono, shipped with the service (never fetched). */
export const TEMPLATE_FONTS = ['sans', 'serif', 'mono'] as const;
export type TemplateFont = (typeof TEMPLATE_FONTS)[number];

const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour as #RRGGBB');
/** Positions and sizes are fractions of the page (0 = left or top edge, 1 = right or bottom edge), whatever its size. */
const fraction = z.number().min(0).max(1);
const base64Image = z
  .object({
    data: z
      .string()
      .min(1, 'is required')
      .max(1_500_000, 'is too long: images are at most 1 MiB')
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64'),
  })
  .strict()
  .meta({ description: 'A PNG or JPEG image as base64, at most 1 MiB and 4000 pixels on a side; the content decides the type.' });

const textBlock = z
  .object({
    text: z.string().min(1, 'is required').max(500),
    x: fraction,
    y: fraction,
    width: z.number().gt(0).max(1),
    font: z.enum(TEMPLATE_FONTS).optional(),
    font_size: z.number().min(6).max(96).default(18),
    bold: z.boolean().default(false),
    color: hexColor.optional(),
    align: z.enum(['left', 'center', 'right']).default('center'),
  })
  .strict()
  .refine((block) => block.x + block.width <= 1.0001, { path: ['width'], message: 'must keep the block on the page (x + width ≤ 1)' });

const customField = z
  .object({
    key: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be lower-case letters, digits and _ (at most 40), starting with a letter'),
    label: z.string().trim().min(1).max(100),
    required: z.boolean().default(true),
  })
  .strict();

const colors = z
  .object({ background: hexColor.default('#FFFFFF'), text: hexColor.default('#1F2933'), accent: hexColor.default('#1D4ED8') })
  .strict();
const qrCode = z.object({ x: fraction, y: fraction, size: z.number().min(0.05).max(0.5) }).strict();
const logoPlacement = z.object({ x: fraction, y: fraction, width: z.number().min(0.02).max(1) }).strict();
/**
 * How dates are written on the document: `long` 26 November 2026, `us` November 26, 2026, `iso` 2026-11-26,
 * `us_numeric` 11/26/2026.
 */
export const DATE_FORMATS = ['long', 'us', 'iso', 'us_numeric'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
const frame = z
  .object({ style: z.enum(['none', 'single', 'double']), color: hexColor.optional().meta({ description: 'The accent colour when absent.' }) })
  .strict()
  .meta({ description: 'A border drawn inside the page edge: none, one line or two.' });
const signaturePlacement = z
  .object({ x: fraction, y: fraction, width: z.number().min(0.05).max(0.5) })
  .strict()
  .meta({ description: 'Where the signature image goes (its top-left corner and width, fractions of the page); drawn only when the template has one.' });
const signatureLabel = z.string().trim().min(1).max(100).meta({ description: 'Printed under the signature, e.g. "Amaka Obi, Programme Director".' });
const issuerName = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(120)
  .meta({ description: "The issuer the document names (`{{issuer_name}}`, or the layout's own issuer line), e.g. a faculty; the organization's name when absent." });

/** Each field's own rule, without defaults: creation adds the defaults, an update names only what changes. */
const fields = {
  name: z.string().trim().min(1, 'is required').max(100),
  page_size: z.enum(['A4', 'letter']),
  orientation: z.enum(['landscape', 'portrait']),
  colors,
  font: z.enum(TEMPLATE_FONTS),
  text_blocks: z.array(textBlock).min(1, 'must hold at least one block').max(30),
  custom_fields: z.array(customField).max(20),
  qr_code: qrCode,
  logo_placement: logoPlacement,
  date_format: z.enum(DATE_FORMATS),
  frame,
  signature_placement: signaturePlacement,
  signature_label: signatureLabel,
  issuer_name: issuerName,
};

const DEFAULTS = {
  page_size: 'A4',
  orientation: 'landscape',
  colors: { background: '#FFFFFF', text: '#1F2933', accent: '#1D4ED8' },
  font: 'serif',
  custom_fields: [],
  qr_code: { x: 0.83, y: 0.7, size: 0.12 },
  logo_placement: { x: 0.05, y: 0.05, width: 0.15 },
  date_format: 'long',
  frame: { style: 'none' },
  signature_placement: { x: 0.08, y: 0.72, width: 0.2 },
} as const;

/**
 * Every placeholder in a text block is a built-in one or a custom field the template declares; custom field keys are
 * unique and never shadow a built-in placeholder.
 */
function checkPlaceholders(definition: { text_blocks: Array<{ text: string }>; custom_fields: Array<{ key: string }> }, ctx: z.RefinementCtx) {
  const declared = new Set<string>();
  definition.custom_fields.forEach((field, index) => {
    if ((BUILT_IN_PLACEHOLDERS as readonly string[]).includes(field.key)) {
      ctx.addIssue({ code: 'custom', path: ['custom_fields', index, 'key'], message: `must not be a built-in placeholder (${field.key})` });
    } else if (declared.has(field.key)) {
      ctx.addIssue({ code: 'custom', path: ['custom_fields', index, 'key'], message: `is declared twice (${field.key})` });
    }
    declared.add(field.key);
  });
  definition.text_blocks.forEach((block, index) => {
    for (const name of placeholdersIn(block.text)) {
      if (!(BUILT_IN_PLACEHOLDERS as readonly string[]).includes(name) && !declared.has(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['text_blocks', index, 'text'],
          message: `uses the unknown placeholder {{${name}}}: use ${BUILT_IN_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')} or a declared custom field`,
        });
      }
    }
  });
}

/** A template's definition as stored on each version (no images: those are stored as bytes beside it). */
const definitionShape = {
    name: fields.name,
    page_size: fields.page_size.default(DEFAULTS.page_size),
    orientation: fields.orientation.default(DEFAULTS.orientation),
    colors: colors.default(DEFAULTS.colors),
    font: fields.font.default(DEFAULTS.font),
    text_blocks: fields.text_blocks,
    custom_fields: fields.custom_fields.default([]),
    qr_code: fields.qr_code.default(DEFAULTS.qr_code),
    logo_placement: fields.logo_placement.default(DEFAULTS.logo_placement),
    date_format: fields.date_format.default(DEFAULTS.date_format),
    frame: fields.frame.default(DEFAULTS.frame),
    signature_placement: fields.signature_placement.default(DEFAULTS.signature_placement),
    signature_label: fields.signature_label.optional(),
    issuer_name: fields.issuer_name.optional(),
};

export const templateDefinitionSchema = z.object(definitionShape).strict().superRefine(checkPlaceholders);

export type TemplateDefinition = z.infer<typeof templateDefinitionSchema>;

const EXAMPLE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAABHNCSVQICAgIfAhkiAAAAAFzUkdCAK7OHOkAAAAVSURBVAiZY+yKYvjPgASYGNAAYQEAfGYB656F8Q0AAAAASUVORK5CYII=';

export const newTemplateSchema = z
  .object({
    ...definitionShape,
    background_image: base64Image.optional(),
    logo: base64Image.optional(),
    signature_image: base64Image.optional(),
  })
  .strict()
  .superRefine(checkPlaceholders)
  .meta({
    id: 'NewTemplate',
    description:
      'Positions are fractions of the page. Text blocks may use `{{recipient_name}}`, `{{program_title}}`, `{{issue_date}}`, ' +
      '`{{certificate_number}}`, `{{verification_url}}`, `{{issuer_name}}` and the `custom_fields` the template declares; any other placeholder is a 422.',
    examples: [
      {
        name: 'Course completion',
        page_size: 'A4',
        orientation: 'landscape',
        colors: { background: '#FFFDF7', text: '#1F2933', accent: '#8A5A00' },
        font: 'serif',
        custom_fields: [{ key: 'grade', label: 'Grade', required: true }],
        text_blocks: [
          { text: 'Certificate of Completion', x: 0.1, y: 0.12, width: 0.8, font_size: 36, bold: true },
          { text: '{{recipient_name}}', x: 0.1, y: 0.35, width: 0.8, font_size: 30 },
          { text: 'completed {{program_title}} with grade {{grade}}', x: 0.1, y: 0.5, width: 0.8 },
          { text: 'Issued {{issue_date}} · {{certificate_number}} · {{verification_url}}', x: 0.05, y: 0.9, width: 0.7, font_size: 10, align: 'left' },
        ],
        logo: { data: EXAMPLE_PNG },
        date_format: 'long',
        frame: { style: 'double' },
        signature_image: { data: EXAMPLE_PNG },
        signature_placement: { x: 0.08, y: 0.72, width: 0.2 },
        signature_label: 'Amaka Obi, Programme Director',
        issuer_name: 'Faculty of Engineering',
      },
    ],
  });

export type NewTemplate = z.infer<typeof newTemplateSchema>;

export const templatePatchSchema = z
  .object({
    name: fields.name.optional(),
    page_size: fields.page_size.optional(),
    orientation: fields.orientation.optional(),
    colors: colors.optional(),
    font: fields.font.optional(),
    text_blocks: fields.text_blocks.optional(),
    custom_fields: fields.custom_fields.optional(),
    qr_code: fields.qr_code.optional(),
    logo_placement: fields.logo_placement.optional(),
    date_format: fields.date_format.optional(),
    frame: fields.frame.optional(),
    signature_placement: fields.signature_placement.optional(),
    signature_label: fields.signature_label.nullable().optional(),
    issuer_name: fields.issuer_name.nullable().optional(),
    background_image: base64Image.nullable().optional(),
    logo: base64Image.nullable().optional(),
    signature_image: base64Image.nullable().optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'must change at least one field' })
  .meta({
    id: 'TemplateUpdate',
    description:
      'Makes a new version from the current one with the fields given (images, `signature_label` and `issuer_name`: `null` removes one, absent keeps it). ' +
      'Certificates already issued keep the version they were issued with.',
    examples: [{ name: 'Course completion (2027)', colors: { background: '#FFFFFF', text: '#111111', accent: '#0B5394' } }],
  });

export type TemplatePatch = z.infer<typeof templatePatchSchema>;

export const templateListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    starting_after: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
    status: z.enum(['active', 'archived']).optional(),
  })
  .meta({ id: 'TemplateListQuery', examples: [{ limit: 20, status: 'active' }] });

export const templateVersionListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    before: z.coerce.number().int().min(2).optional().meta({ description: 'The `next_before` of the previous page: versions older than this one.' }),
  })
  .meta({ id: 'TemplateVersionListQuery', examples: [{ limit: 10 }] });
