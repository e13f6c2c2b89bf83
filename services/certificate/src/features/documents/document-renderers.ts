import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import { readImageSize } from '../templates';
import type { PlaceholderValues } from '../templates';
import type { TemplateDefinition } from '../templates';
import { canvasFamily, fontBytes } from './document-fonts';
import { canvasImage, pdfImage, releaseCanvas, releaseImage, usingPreparedImages } from './document-images';
import { layoutPage, statusBand, type LayoutImages, type MeasureText, type PageLayout } from './document-layout';
import type { DocumentStatus } from './documents.repository';
import { qrCodePng } from './qr-code';

/** What a document is drawn from: the template version, its images, the placeholder values and the public page's URL. */
export interface DocumentInput {
  definition: TemplateDefinition;
  backgroundImage: Buffer | null;
  logo: Buffer | null;
  signature: Buffer | null;
  /** Placeholder values as printed: dates already written out in the template's date format, the issuer's name. */
  values: PlaceholderValues;
  verificationUrl: string;
  title: string;
  /** A revoked or expired certificate's document carries a band saying so. */
  status: DocumentStatus;
  /** Beside the QR code: the issuer's name and whether its identity is verified (`… — verified domain …`); none on previews. */
  issuerNote?: string;
}

const ISSUER_NOTE_SIZE = 7;

/** Where the issuer note goes: just under the QR code (above it when the page ends there). */
function issuerNoteLine(note: string | undefined, layout: PageLayout, measure: (text: string, size: number) => number) {
  if (!note) return null;
  const width = measure(note, ISSUER_NOTE_SIZE);
  const below = layout.qr.y + layout.qr.size + 3;
  const y = below + ISSUER_NOTE_SIZE * 1.3 <= layout.height - 4 ? below : layout.qr.y - ISSUER_NOTE_SIZE * 1.3 - 3;
  // Right-aligned with the QR code, so a note wider than the code grows inwards, away from the page's edge and frame.
  const x = Math.max(12, layout.qr.x + layout.qr.size - width);
  return { text: note, x, y, size: ISSUER_NOTE_SIZE };
}

/** PNG pixels per PDF point: A4 landscape becomes 1684 × 1191 pixels (144 dpi). */
const PNG_SCALE = 2;

/** The proportions of the images a document has, read from their headers (both renderers lay out the same page). */
function imagesOf(input: DocumentInput): LayoutImages {
  return { logo: input.logo ? readImageSize(input.logo) : null, signature: input.signature ? readImageSize(input.signature) : null };
}

/**
 * The largest box, in points, each of the template's images is drawn in: the background covers the page; the logo
 * and the signature are drawn at their placement's width or, where the layout shrinks them, smaller.
 */
function imageBoxes(input: DocumentInput, layout: PageLayout) {
  const sizes = imagesOf(input);
  const atWidth = (fraction: number, size: { width: number; height: number } | null) =>
    size ? { width: fraction * layout.width, height: (fraction * layout.width * size.height) / size.width } : { width: layout.width, height: layout.height };
  return {
    background: { width: layout.width, height: layout.height },
    logo: atWidth(input.definition.logo_placement.width, sizes.logo),
    signature: atWidth(input.definition.signature_placement.width, sizes.signature),
  };
}

/** The layout of a document, as both renderers draw it. */
export function documentLayout(input: DocumentInput, measure: MeasureText): PageLayout {
  return layoutPage(input.definition, input.values, measure, imagesOf(input));
}

/** The certificate as a one-page PDF, fonts embedded (its text can be selected and copied), with the QR code linking to the public page. */
export function renderPdf(input: DocumentInput): Promise<Buffer> {
  return usingPreparedImages(() => drawPdf(input));
}

async function drawPdf(input: DocumentInput): Promise<Buffer> {
  const doc = new PDFDocument({ size: [10, 10], margin: 0, autoFirstPage: false, info: { Title: input.title, Author: input.values.issuer_name ?? '', Creator: 'Certificate service' } });
  for (const font of ['sans', 'serif', 'mono'] as const) {
    doc.registerFont(`${font}`, fontBytes(font, false));
    doc.registerFont(`${font}-bold`, fontBytes(font, true));
  }
  const fontName = (font: string, bold: boolean) => (bold ? `${font}-bold` : font);
  const layout = documentLayout(input, (text, font, bold, size) => doc.font(fontName(font, bold)).fontSize(size).widthOfString(text));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const boxes = imageBoxes(input, layout);
  const background = input.backgroundImage && (await pdfImage(input.backgroundImage, boxes.background.width, boxes.background.height));
  const logo = input.logo && layout.logo ? await pdfImage(input.logo, boxes.logo.width, boxes.logo.height) : null;
  const signatureImage = input.signature && layout.signature ? await pdfImage(input.signature, boxes.signature.width, boxes.signature.height) : null;
  doc.addPage({ size: [layout.width, layout.height], margin: 0 });
  doc.rect(0, 0, layout.width, layout.height).fill(layout.background);
  if (background) doc.image(background, 0, 0, { width: layout.width, height: layout.height });
  if (layout.frame) {
    for (const rect of layout.frame.rects) doc.lineWidth(rect.lineWidth).rect(rect.x, rect.y, rect.width, rect.height).stroke(layout.frame.color);
  }
  if (logo && layout.logo) doc.image(logo, layout.logo.x, layout.logo.y, { width: layout.logo.width, height: layout.logo.height });
  const signature = layout.signature;
  if (signatureImage && signature) {
    doc.image(signatureImage, signature.image.x, signature.image.y, { width: signature.image.width, height: signature.image.height });
    const { rule } = signature;
    doc.lineWidth(0.75).moveTo(rule.x, rule.y).lineTo(rule.x + rule.width, rule.y).stroke(input.definition.colors.accent);
  }
  for (const line of [...layout.lines, ...(signature?.label ? [signature.label] : [])]) {
    doc.font(fontName(line.font, line.bold)).fontSize(line.size).fillColor(line.color).text(line.text, line.x, line.y, { lineBreak: false });
  }
  doc.image(await qrCodePng(input.verificationUrl), layout.qr.x, layout.qr.y, { width: layout.qr.size });
  doc.link(layout.qr.x, layout.qr.y, layout.qr.size, layout.qr.size, input.verificationUrl);
  const note = issuerNoteLine(input.issuerNote, layout, (text, size) => doc.font('sans').fontSize(size).widthOfString(text));
  if (note) doc.font('sans').fontSize(note.size).fillColor(input.definition.colors.text).text(note.text, note.x, note.y, { lineBreak: false });
  const band = statusBand(input.status, layout, (text, size) => doc.font('sans-bold').fontSize(size).widthOfString(text));
  if (band) {
    // Real text, not a picture of it: a reader (or a parser) finds the word REVOKED in the PDF.
    doc.rect(0, band.y, layout.width, band.height).fill(band.color);
    doc.font('sans-bold').fillColor('#FFFFFF');
    doc.fontSize(band.title.size).text(band.title.text, band.title.x, band.title.y, { lineBreak: false });
    doc.fontSize(band.note.size).text(band.note.text, band.note.x, band.note.y, { lineBreak: false });
  }
  doc.end();
  await finished;
  return Buffer.concat(chunks);
}

function strokeRect(context: SKRSContext2D, rect: { x: number; y: number; width: number; height: number; lineWidth: number }, color: string) {
  context.strokeStyle = color;
  context.lineWidth = rect.lineWidth;
  context.strokeRect(rect.x, rect.y, rect.width, rect.height);
}

/** The same page as a PNG, drawn directly on a canvas (no browser, no PDF rasteriser). */
export function renderPng(input: DocumentInput): Promise<Buffer> {
  return usingPreparedImages(() => drawPng(input));
}

async function drawPng(input: DocumentInput): Promise<Buffer> {
  const probe = createCanvas(1, 1).getContext('2d');
  const cssFont = (font: Parameters<typeof canvasFamily>[0], bold: boolean, size: number) => `${bold ? 'bold ' : ''}${size}px "${canvasFamily(font)}"`;
  const layout = documentLayout(input, (text, font, bold, size) => {
    probe.font = cssFont(font, bold, size);
    return probe.measureText(text).width;
  });
  const boxes = imageBoxes(input, layout);
  // Each image decoded at the pixels it is drawn at, and kept for the template's next documents.
  const prepared = (bytes: Buffer, box: { width: number; height: number }) => canvasImage(bytes, box.width * PNG_SCALE, box.height * PNG_SCALE);
  const canvas = createCanvas(Math.round(layout.width * PNG_SCALE), Math.round(layout.height * PNG_SCALE));
  const context = canvas.getContext('2d');
  context.scale(PNG_SCALE, PNG_SCALE);
  context.fillStyle = layout.background;
  context.fillRect(0, 0, layout.width, layout.height);
  if (input.backgroundImage) context.drawImage(await prepared(input.backgroundImage, boxes.background), 0, 0, layout.width, layout.height);
  for (const rect of layout.frame?.rects ?? []) strokeRect(context, rect, layout.frame!.color);
  if (input.logo && layout.logo) context.drawImage(await prepared(input.logo, boxes.logo), layout.logo.x, layout.logo.y, layout.logo.width, layout.logo.height);
  const signature = layout.signature;
  if (input.signature && signature) {
    context.drawImage(await prepared(input.signature, boxes.signature), signature.image.x, signature.image.y, signature.image.width, signature.image.height);
    context.fillStyle = input.definition.colors.accent;
    context.fillRect(signature.rule.x, signature.rule.y - 0.375, signature.rule.width, 0.75);
  }
  context.textBaseline = 'top';
  for (const line of [...layout.lines, ...(signature?.label ? [signature.label] : [])]) {
    context.font = cssFont(line.font, line.bold, line.size);
    context.fillStyle = line.color;
    context.fillText(line.text, line.x, line.y);
  }
  // Smoothing would blur the QR code's modules into grey; scanners read hard edges best.
  context.imageSmoothingEnabled = false;
  const qr = await loadImage(await qrCodePng(input.verificationUrl));
  context.drawImage(qr, layout.qr.x, layout.qr.y, layout.qr.size, layout.qr.size);
  const note = issuerNoteLine(input.issuerNote, layout, (text, size) => {
    probe.font = cssFont('sans', false, size);
    return probe.measureText(text).width;
  });
  if (note) {
    context.font = cssFont('sans', false, note.size);
    context.fillStyle = input.definition.colors.text;
    context.fillText(note.text, note.x, note.y);
  }
  const band = statusBand(input.status, layout, (text, size) => {
    probe.font = cssFont('sans', true, size);
    return probe.measureText(text).width;
  });
  if (band) {
    context.fillStyle = band.color;
    context.fillRect(0, band.y, layout.width, band.height);
    context.fillStyle = '#FFFFFF';
    for (const line of [band.title, band.note]) {
      context.font = cssFont('sans', true, line.size);
      context.fillText(line.text, line.x, line.y);
    }
  }
  try {
    return canvas.toBuffer('image/png');
  } finally {
    // Native memory the garbage collector does not see: freed now, not whenever a collection finds these objects.
    releaseImage(qr);
    releaseCanvas(canvas);
  }
}
