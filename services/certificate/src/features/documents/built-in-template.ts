import { templateDefinitionSchema, type TemplateDefinition } from '../templates';

/** The layout of a certificate issued without a template; its documents are cached as template version 0. */
export const BUILT_IN_TEMPLATE: TemplateDefinition = templateDefinitionSchema.parse({
  name: 'Built-in',
  font: 'serif',
  frame: { style: 'double' },
  text_blocks: [
    { text: 'Certificate of Completion', x: 0.08, y: 0.12, width: 0.84, font_size: 34, bold: true, color: '#1D4ED8' },
    { text: 'This certifies that', x: 0.08, y: 0.28, width: 0.84, font_size: 16 },
    { text: '{{recipient_name}}', x: 0.08, y: 0.36, width: 0.84, font_size: 32, bold: true },
    { text: 'has completed', x: 0.08, y: 0.5, width: 0.84, font_size: 16 },
    { text: '{{program_title}}', x: 0.08, y: 0.57, width: 0.84, font_size: 24, bold: true },
    { text: 'Issued by {{issuer_name}} on {{issue_date}}', x: 0.08, y: 0.7, width: 0.7, font_size: 13, align: 'left' },
    { text: 'Certificate {{certificate_number}}', x: 0.08, y: 0.75, width: 0.7, font_size: 11, align: 'left' },
    { text: 'Verify at {{verification_url}}', x: 0.08, y: 0.88, width: 0.72, font_size: 10, font: 'sans', align: 'left' },
  ],
});
