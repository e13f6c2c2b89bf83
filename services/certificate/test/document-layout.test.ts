import { createCanvas } from '@napi-rs/canvas';
import fc from 'fast-check';
import { intersects, type Box } from '../src/features/documents/document-boxes';
import { humanDate } from '../src/features/documents/document-dates';
import { canvasFamily } from '../src/features/documents/document-fonts';
import { IMAGE_CLEARANCE, layoutPage, type MeasureText, type PageLayout } from '../src/features/documents/document-layout';
import { documentLayout, renderPng, type DocumentInput } from '../src/features/documents/document-renderers';
import { BUILT_IN_TEMPLATE } from '../src/features/documents/built-in-template';
import { templateDefinitionSchema } from '../src/features/templates/templates.schema';
import { pngBase64 } from './factories/templates';
import { magentaBoxIn, pixelAt, qrCodeIn } from './helpers/documents';

/** Text measured as the PNG renderer measures it (the real DejaVu fonts, through the canvas). */
const probe = createCanvas(1, 1).getContext('2d');
const measure: MeasureText = (text, font, bold, size) => {
  probe.font = `${bold ? 'bold ' : ''}${size}px "${canvasFamily(font)}"`;
  return probe.measureText(text).width;
};

const LONG_TITLE = 'Certificate of Outstanding Achievement in Advanced Distributed Systems Engineering and Operations';
const values = {
  recipient_name: 'Oluwaseun Adebayo-Okonkwo',
  program_title: 'Applied Machine Learning for Agricultural Supply Chains',
  issue_date: humanDate('2026-11-26'),
  certificate_number: 'CERT-2026-0123456789',
  verification_url: 'https://certificates.example.test/credentials/K7M2QX-9HTR4B-WN3PZD',
  issuer_name: 'Lagos Institute of Technology and Design',
};

function template(overrides: Record<string, unknown>) {
  return templateDefinitionSchema.parse({
    name: 'Layout test',
    text_blocks: [
      { text: LONG_TITLE, x: 0.05, y: 0.06, width: 0.9, font_size: 36, bold: true },
      { text: '{{recipient_name}}', x: 0.1, y: 0.42, width: 0.8, font_size: 30 },
      { text: 'completed {{program_title}} on {{issue_date}}', x: 0.1, y: 0.55, width: 0.8 },
    ],
    ...overrides,
  });
}

/** The space between two boxes that do not overlap: the widest gap along either axis. */
function gapBetween(a: Box, b: Box): number {
  return Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width), b.y - (a.y + a.height), a.y - (b.y + b.height));
}

/** Every pair of named parts that must never overlap in this layout (text boxes among themselves are the template's). */
function overlaps(layout: PageLayout): string[] {
  const images: Array<[string, Box | null]> = [
    ['logo', layout.boxes.logo],
    ['signature', layout.boxes.signature],
  ];
  const others: Array<[string, Box | null]> = [
    ['qr', layout.boxes.qr],
    ...layout.boxes.text.map((box, index): [string, Box] => [`text ${index}`, box]),
  ];
  const found: string[] = [];
  for (const [name, box] of images) {
    if (!box) continue;
    for (const [other, otherBox] of [...others, ...images.filter(([n]) => n !== name)]) {
      if (otherBox && intersects(box, otherBox)) found.push(`${name} × ${other}`);
    }
  }
  return found;
}

describe('the document layout', () => {
  it('never lets the logo cover the title, however long the title and large the logo', () => {
    fc.assert(
      fc.property(
        fc.record({
          title: fc.string({ minLength: 1, maxLength: 160 }).map((text) => `${text.replace(/\{|\}/g, '')} ${LONG_TITLE}`.slice(0, 200)),
          titleY: fc.double({ min: 0, max: 0.3, noNaN: true }),
          titleSize: fc.integer({ min: 12, max: 96 }),
          logoX: fc.double({ min: 0, max: 0.6, noNaN: true }),
          logoY: fc.double({ min: 0, max: 0.3, noNaN: true }),
          logoWidth: fc.double({ min: 0.02, max: 1, noNaN: true }),
          logoAspect: fc.double({ min: 0.1, max: 10, noNaN: true }),
          orientation: fc.constantFrom('landscape', 'portrait'),
        }),
        (c) => {
          const definition = template({
            orientation: c.orientation,
            logo_placement: { x: c.logoX, y: c.logoY, width: c.logoWidth },
            text_blocks: [
              { text: c.title, x: 0.05, y: c.titleY, width: 0.9, font_size: c.titleSize, bold: true },
              { text: '{{recipient_name}}', x: 0.1, y: 0.5, width: 0.8, font_size: 30 },
            ],
          });
          const layout = layoutPage(definition, values, measure, { logo: { width: 1000, height: Math.round(1000 * c.logoAspect) }, signature: null });
          expect(overlaps(layout)).toEqual([]);
          expect(layout.boxes.title).not.toBeNull();
          if (layout.boxes.logo) expect(intersects(layout.boxes.logo, layout.boxes.title!)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shrinks a large logo placed over a long title, and keeps it on the page', () => {
    const definition = template({ logo_placement: { x: 0.02, y: 0.02, width: 0.6 } });
    const layout = layoutPage(definition, values, measure, { logo: { width: 2000, height: 2000 }, signature: null });
    const { logo, title } = layout.boxes;
    expect(logo).not.toBeNull();
    expect(intersects(logo!, title!)).toBe(false);
    expect(logo!.width).toBeLessThan(0.6 * layout.width);
    expect(logo!.x + logo!.width).toBeLessThanOrEqual(layout.width);
    expect(logo!.y + logo!.height).toBeLessThanOrEqual(layout.height);
    expect(logo!.width / logo!.height).toBeCloseTo(1, 5);
    expect(overlaps(layout)).toEqual([]);
  });

  it("the dashboard designer's layout: a square logo centred above the title, whole and clear of it", () => {
    // The fractions of packages/dashboard's designer (templateBody): logo 0.12 wide at the top centre, title at 0.3.
    const definition = template({
      logo_placement: { x: 0.44, y: 0.07, width: 0.12 },
      text_blocks: [
        { text: 'Certificate of Completion', x: 0.1, y: 0.3, width: 0.8, font_size: 36, bold: true },
        { text: '{{recipient_name}}', x: 0.1, y: 0.47, width: 0.8, font_size: 30, bold: true },
        { text: '{{program_title}} — {{issue_date}}', x: 0.1, y: 0.62, width: 0.8 },
      ],
    });
    for (const orientation of ['landscape', 'portrait'] as const) {
      const layout = layoutPage({ ...definition, orientation }, values, measure, { logo: { width: 500, height: 500 }, signature: null });
      const { logo, title } = layout.boxes;
      // Whole (not shrunk), at its place.
      expect([logo!.x, logo!.y, logo!.width, logo!.height].map((value) => Math.round(value * 100) / 100)).toEqual(
        [0.44 * layout.width, 0.07 * layout.height, 0.12 * layout.width, 0.12 * layout.width].map((value) => Math.round(value * 100) / 100),
      );
      // Above the title, not beside it, with room to breathe.
      expect(title!.y - (logo!.y + logo!.height)).toBeGreaterThanOrEqual(IMAGE_CLEARANCE);
    }
  });

  it('a logo placed beside the title shrinks to keep IMAGE_CLEARANCE from it, not merely to stop touching it', () => {
    const definition = template({
      logo_placement: { x: 0.03, y: 0.1, width: 0.2 },
      text_blocks: [{ text: 'Certificate of Completion', x: 0.1, y: 0.12, width: 0.8, font_size: 36, bold: true }],
    });
    const layout = layoutPage(definition, values, measure, { logo: { width: 500, height: 500 }, signature: null });
    const { logo, title } = layout.boxes;
    expect(logo!.width).toBeLessThan(0.2 * layout.width);
    expect(gapBetween(logo!, title!)).toBeGreaterThanOrEqual(IMAGE_CLEARANCE - 1e-6);
    for (const box of [...layout.boxes.text, layout.boxes.qr]) expect(gapBetween(logo!, box)).toBeGreaterThanOrEqual(IMAGE_CLEARANCE - 1e-6);
  });

  it('adds the issuer line where the template does not show {{issuer_name}}, clear of the other text and the QR code', () => {
    for (const definition of [template({}), template({ frame: { style: 'double' } }), template({ orientation: 'portrait', page_size: 'letter' })]) {
      const layout = layoutPage(definition, values, measure);
      const issuer = layout.lines.filter((line) => line.text.includes('Issued by') || line.text.includes('Lagos Institute'));
      expect(issuer.map((line) => line.text).join(' ')).toBe(`Issued by ${values.issuer_name}`);
      // The added line is the last block of text.
      expect(layout.boxes.text.at(-1)).toEqual(layout.boxes.issuer);
      const others = layout.boxes.text.slice(0, -1);
      expect([...others, layout.boxes.qr].filter((box) => intersects(box, layout.boxes.issuer!))).toEqual([]);
    }
  });

  it("uses the template's own {{issuer_name}} block instead of adding one", () => {
    const definition = template({ text_blocks: [{ text: 'Awarded by {{issuer_name}}', x: 0.1, y: 0.2, width: 0.8 }] });
    const layout = layoutPage(definition, values, measure);
    expect(layout.lines.map((line) => line.text)).toEqual([`Awarded by ${values.issuer_name}`]);
    expect(layout.boxes.issuer).toEqual(layout.boxes.title);
  });

  it('fits the signature and its label clear of the text, the QR code and the logo', () => {
    const definition = template({ signature_placement: { x: 0.1, y: 0.66, width: 0.5 }, signature_label: 'Amaka Obi, Programme Director' });
    const layout = layoutPage(definition, values, measure, { logo: { width: 400, height: 200 }, signature: { width: 600, height: 300 } });
    expect(layout.signature).not.toBeNull();
    // Shrunk to stay above the issuer line at the bottom of the page.
    expect(layout.signature!.image.width).toBeLessThan(0.5 * layout.width);
    expect(layout.signature!.label!.text).toBe('Amaka Obi, Programme Director');
    expect(overlaps(layout)).toEqual([]);
  });

  it('the built-in layout holds the issuer, a human date and a double frame', () => {
    const layout = layoutPage(BUILT_IN_TEMPLATE, values, measure);
    expect(layout.lines.map((line) => line.text)).toContain(`Issued by ${values.issuer_name} on 26 November 2026`);
    expect(layout.frame?.rects).toHaveLength(2);
  });
});

describe('the rendered PNG', () => {
  it('draws the logo exactly in its layout box, which the title does not touch', async () => {
    const definition = template({ logo_placement: { x: 0.02, y: 0.02, width: 0.5 }, colors: { background: '#FFFFFF', text: '#000000', accent: '#1D4ED8' } });
    const input: DocumentInput = {
      definition,
      backgroundImage: null,
      logo: Buffer.from(pngBase64(300, 200, '#FF00FF'), 'base64'),
      signature: null,
      values,
      verificationUrl: values.verification_url,
      title: 'test',
      status: 'valid',
    };
    const layout = documentLayout(input, measure);
    // The PNG is drawn at 2 pixels a point.
    const drawn = await magentaBoxIn(await renderPng(input), 2);
    const logo = layout.boxes.logo!;
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(drawn[key] - logo[key])).toBeLessThanOrEqual(1);
    expect(intersects(drawn, layout.boxes.title!)).toBe(false);
  });
});

describe('the REVOKED band', () => {
  it('leaves the logo whole: with the logo at the top (the default place), the band goes across the bottom, clear of the QR code', async () => {
    const input: DocumentInput = {
      definition: BUILT_IN_TEMPLATE,
      backgroundImage: null,
      logo: Buffer.from(pngBase64(300, 200, '#FF00FF'), 'base64'),
      signature: null,
      values,
      verificationUrl: values.verification_url,
      title: 'test',
      status: 'revoked',
    };
    const layout = documentLayout(input, measure);
    const logo = layout.boxes.logo!;
    expect(logo.y).toBeLessThan(0.11 * layout.height);
    const png = await renderPng(input);
    const drawn = await magentaBoxIn(png, 2);
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(drawn[key] - logo[key])).toBeLessThanOrEqual(1);
    // The band is still there, in red, across the bottom; the QR code still reads.
    expect(await pixelAt(png, 4, Math.round(layout.height * 2) - 4)).toEqual([0xb9, 0x1c, 0x1c]);
    expect(await qrCodeIn(png)).toBe(values.verification_url);
  });
});
