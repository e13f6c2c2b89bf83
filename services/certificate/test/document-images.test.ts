import { createCanvas } from '@napi-rs/canvas';
import { PDF_PIXELS_PER_POINT } from '../src/features/documents/document-images';
import { documentLayout, renderPdf, renderPng, type DocumentInput } from '../src/features/documents/document-renderers';
import { canvasFamily } from '../src/features/documents/document-fonts';
import type { MeasureText } from '../src/features/documents/document-layout';
import { templateDefinitionSchema } from '../src/features/templates/templates.schema';
import { jpegBase64, pngBase64 } from './factories/templates';
import { magentaBoxIn } from './helpers/documents';

/** Templates at the pixel cap: images far larger than the page draws them, as partners upload them. */
const definition = templateDefinitionSchema.parse({
  name: 'Large images',
  text_blocks: [{ text: '{{recipient_name}}', x: 0.1, y: 0.45, width: 0.8, font_size: 30 }],
  logo_placement: { x: 0.05, y: 0.05, width: 0.2 },
  colors: { background: '#FFFFFF', text: '#000000', accent: '#1D4ED8' },
});
const values = { recipient_name: 'Ada Lovelace', issuer_name: 'Analytical Engines Ltd', verification_url: 'https://certificates.example.test/credentials/K7M2QX' };
const bigLogo = Buffer.from(pngBase64(2000, 1000, '#FF00FF'), 'base64');

function input(overrides: Partial<DocumentInput> = {}): DocumentInput {
  return { definition, backgroundImage: null, logo: bigLogo, signature: null, values, verificationUrl: values.verification_url, title: 'test', status: 'valid', ...overrides };
}

const probe = createCanvas(1, 1).getContext('2d');
const measure: MeasureText = (text, font, bold, size) => {
  probe.font = `${bold ? 'bold ' : ''}${size}px "${canvasFamily(font)}"`;
  return probe.measureText(text).width;
};

/** The widths of the image XObjects a PDF embeds. */
function embeddedImageWidths(pdf: Buffer): number[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\/Subtype \/Image[\s\S]*?\/Width (\d+)/g)].map((match) => Number(match[1]));
}

describe('documents of a template with images larger than the page draws them', () => {
  it('the PNG shows a large logo exactly in its layout box, in its colour', async () => {
    const layout = documentLayout(input(), measure);
    // The PNG is drawn at 2 pixels a point.
    const drawn = await magentaBoxIn(await renderPng(input()), 2);
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(drawn[key] - layout.boxes.logo![key])).toBeLessThanOrEqual(1);
  });

  it('the PDF embeds a PNG logo at 300 dpi of its drawn size, and a JPEG background as uploaded', async () => {
    const background = Buffer.from(jpegBase64(3000, 2000), 'base64');
    const pdf = await renderPdf(input({ backgroundImage: background }));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    const logoWidth = Math.ceil(definition.logo_placement.width * documentLayout(input(), measure).width * PDF_PIXELS_PER_POINT);
    // The JPEG's own bytes (a PDF embeds a JPEG without decoding it), and the logo (with its alpha mask) at print resolution.
    expect(pdf.includes(background)).toBe(true);
    expect(embeddedImageWidths(pdf).sort((a, b) => a - b)).toEqual(expect.arrayContaining([3000, logoWidth]));
    expect(embeddedImageWidths(pdf)).not.toContain(2000);
  });

  it('a logo no larger than 300 dpi goes into the PDF at its own size', async () => {
    const pdf = await renderPdf(input({ logo: Buffer.from(pngBase64(300, 150, '#FF00FF'), 'base64') }));
    expect(embeddedImageWidths(pdf)).toContain(300);
  });

});
