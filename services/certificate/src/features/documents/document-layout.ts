import { fillPlaceholders, placeholdersIn, type PlaceholderValues } from '../templates';
import type { TemplateDefinition, TemplateFont } from '../templates';
import { grown, intersects, largestFit, unionOf, type Box } from './document-boxes';

/** Page sizes in PDF points (1/72 inch), portrait. */
const PAGE_SIZES = { A4: [595.28, 841.89], letter: [612, 792] } as const;
export const LINE_HEIGHT = 1.25;

export interface PlacedLine {
  text: string;
  x: number;
  y: number;
  /** As measured by the renderer's own font engine. */
  width: number;
  font: TemplateFont;
  bold: boolean;
  size: number;
  color: string;
}

/** An image's size in pixels: only its proportions count. */
export interface ImageSize {
  width: number;
  height: number;
}

/** Which of the template's optional images a document has (each drawn only when present). */
export interface LayoutImages {
  logo: ImageSize | null;
  signature: ImageSize | null;
}

export interface SignatureLayout {
  image: Box;
  /** The line the signature stands on, and the signatory's label under it. */
  rule: { x: number; y: number; width: number };
  label: PlacedLine | null;
}

export interface FrameLayout {
  color: string;
  rects: Array<Box & { lineWidth: number }>;
}

/** The named parts of a document, as boxes: what tests (and anyone checking a template) measure. */
export interface LayoutBoxes {
  /** The first text block: the heading. */
  title: Box | null;
  /** The blocks showing the recipient's name, the program, the issue date and the issuer (null where none does). */
  name: Box | null;
  program: Box | null;
  date: Box | null;
  issuer: Box | null;
  logo: Box | null;
  signature: Box | null;
  qr: Box;
  /** Every block of text, the template's in order, then the issuer line when the layout added it. */
  text: Box[];
}

export interface PageLayout {
  width: number;
  height: number;
  background: string;
  frame: FrameLayout | null;
  lines: PlacedLine[];
  qr: { x: number; y: number; size: number };
  logo: Box | null;
  signature: SignatureLayout | null;
  boxes: LayoutBoxes;
}

/**
 * A band across the page saying the certificate is no longer valid, drawn over everything else: across the top, or
 * across the bottom where the top one would cover the logo (and the bottom one covers neither the logo nor the QR code).
 */
export interface StatusBand {
  y: number;
  height: number;
  color: string;
  title: { text: string; x: number; y: number; size: number };
  note: { text: string; x: number; y: number; size: number };
}

const BAND_TEXT = {
  revoked: { title: 'REVOKED', note: 'This certificate was revoked by its issuer and is no longer valid.' },
  expired: { title: 'EXPIRED', note: 'This certificate has expired and is no longer valid.' },
  test: { title: 'TEST', note: 'Test certificate — not a real credential. It was issued in test mode.' },
} as const;

/** The band of a revoked, expired or test certificate (none for a valid one), centred across the page; text in bold sans. */
export function statusBand(
  status: 'valid' | 'revoked' | 'expired' | 'test',
  page: Pick<PageLayout, 'width' | 'height' | 'logo' | 'qr'>,
  measure: (text: string, size: number) => number,
): StatusBand | null {
  if (status === 'valid') return null;
  const { width, height } = page;
  const { title, note } = BAND_TEXT[status];
  const bandHeight = Math.max(56, height * 0.11);
  const titleSize = bandHeight * 0.42;
  const noteSize = bandHeight * 0.16;
  const top = bandHeight * 0.12;
  const clear = (y: number, boxes: Array<Box | null>) => boxes.every((box) => !box || !intersects({ x: 0, y, width, height: bandHeight }, box));
  const qrBox = { x: page.qr.x, y: page.qr.y, width: page.qr.size, height: page.qr.size };
  const bottom = height - bandHeight;
  const y = clear(0, [page.logo]) || !clear(bottom, [page.logo, qrBox]) ? 0 : bottom;
  return {
    y,
    height: bandHeight,
    color: '#B91C1C',
    title: { text: title, x: (width - measure(title, titleSize)) / 2, y: y + top, size: titleSize },
    note: { text: note, x: (width - measure(note, noteSize)) / 2, y: y + top + titleSize * LINE_HEIGHT, size: noteSize },
  };
}

export type MeasureText = (text: string, font: TemplateFont, bold: boolean, size: number) => number;

/** Breaks text into lines no wider than `width` at spaces; a single word wider than the line stays whole. */
export function wrapText(text: string, width: number, measure: (line: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && measure(candidate) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

const ISSUER_LINE_SIZE = 12;
/**
 * The space, in points, kept between an image (logo, signature) and any text or the QR code where the page has room for
 * it: an image never crowds the title.
 */
export const IMAGE_CLEARANCE = 10;
const SIGNATURE_LABEL_SIZE = 10;

const lineBox = (line: PlacedLine): Box => ({ x: line.x, y: line.y, width: line.width, height: line.size * LINE_HEIGHT });

/** The page's size in points, and the margin that keeps added parts off its edge (and inside the frame). */
function pageGeometry(definition: TemplateDefinition) {
  const [short, long] = PAGE_SIZES[definition.page_size];
  const [width, height] = definition.orientation === 'landscape' ? [long, short] : [short, long];
  const frameInset = Math.min(width, height) * 0.03;
  const margin = definition.frame.style === 'none' ? frameInset : frameInset + 12;
  return { width, height, frameInset, margin };
}

function frameOf(definition: TemplateDefinition, width: number, height: number, inset: number): FrameLayout | null {
  if (definition.frame.style === 'none') return null;
  const rect = (at: number, lineWidth: number) => ({ x: at, y: at, width: width - 2 * at, height: height - 2 * at, lineWidth });
  const rects = definition.frame.style === 'single' ? [rect(inset, 2)] : [rect(inset, 3), rect(inset + 5, 1)];
  return { color: definition.frame.color ?? definition.colors.accent, rects };
}

/** Lines of text laid out in a box of `boxWidth` from (x, y), wrapped and aligned. */
function placeLines(text: string, x: number, y: number, boxWidth: number, style: Omit<PlacedLine, 'text' | 'x' | 'y' | 'width'>, align: 'left' | 'center' | 'right', measure: MeasureText): PlacedLine[] {
  const width = (line: string) => measure(line, style.font, style.bold, style.size);
  return wrapText(text, boxWidth, width).map((line, index) => {
    const lineWidth = width(line);
    const offset = align === 'left' ? 0 : align === 'right' ? boxWidth - lineWidth : (boxWidth - lineWidth) / 2;
    return { ...style, text: line, x: x + offset, y: y + index * style.size * LINE_HEIGHT, width: lineWidth };
  });
}

/**
 * Where a block of lines made by `at(x, y)` fits clear of every obstacle: the lowest free row first (bottom up), at the
 * left margin, the centre or the right margin. Where the page is full, at the bottom left anyway: it must be shown.
 */
function freeSpotFor(at: (x: number, y: number) => PlacedLine[], obstacles: Box[], width: number, height: number, margin: number): PlacedLine[] {
  const probe = at(0, 0);
  const blockWidth = Math.max(...probe.map((line) => line.width));
  const blockHeight = probe.length * probe[0]!.size * LINE_HEIGHT;
  const columns = [margin, (width - blockWidth) / 2, width - margin - blockWidth];
  for (let y = height - margin - blockHeight; y >= margin; y -= 4) {
    for (const x of columns) {
      const lines = at(x, y);
      const box = unionOf(lines.map(lineBox))!;
      if (!obstacles.some((obstacle) => intersects(box, obstacle))) return lines;
    }
  }
  return at(margin, height - margin - blockHeight);
}

/**
 * The logo at its place, shrunk (keeping its proportions) as far as needed to stay clear of the obstacles (the text and
 * the QR code, grown by `IMAGE_CLEARANCE`); where even a quarter of its size does not fit there, the page corner where
 * it is largest; where none fits, no logo.
 */
function placeLogo(definition: TemplateDefinition, size: ImageSize, obstacles: Box[], page: { width: number; height: number; margin: number }): Box | null {
  const width = definition.logo_placement.width * page.width;
  const height = (width * size.height) / size.width;
  const { margin } = page;
  const box = (x: number, y: number, scale: number): Box => ({ x, y, width: width * scale, height: height * scale });
  const whole = { x: 0, y: 0, width: page.width, height: page.height };
  const placed = (boxAt: (scale: number) => Box, minScale: number) => {
    const scale = largestFit(boxAt, obstacles, whole, minScale);
    return scale === null ? null : { box: boxAt(scale), scale };
  };
  const asPlaced = placed((scale) => box(definition.logo_placement.x * page.width, definition.logo_placement.y * page.height, scale), 0.25);
  if (asPlaced) return asPlaced.box;
  const corners = [
    (scale: number) => box(margin, margin, scale),
    (scale: number) => box(page.width - margin - width * scale, margin, scale),
    (scale: number) => box(margin, page.height - margin - height * scale, scale),
    (scale: number) => box(page.width - margin - width * scale, page.height - margin - height * scale, scale),
  ];
  const best = corners.map((corner) => placed(corner, 0.1)).reduce((a, b) => (b && (!a || b.scale > a.scale) ? b : a), null);
  return best?.box ?? null;
}

/** The signature at its place above a rule and its label, shrunk to stay clear of everything else; none where it cannot. */
function placeSignature(definition: TemplateDefinition, size: ImageSize, obstacles: Box[], page: { width: number; height: number }, measure: MeasureText): SignatureLayout | null {
  const x = definition.signature_placement.x * page.width;
  const y = definition.signature_placement.y * page.height;
  const width = definition.signature_placement.width * page.width;
  const height = (width * size.height) / size.width;
  const label = definition.signature_label;
  const style = { font: definition.font, bold: false, size: SIGNATURE_LABEL_SIZE, color: definition.colors.text };
  const labelWidth = label ? measure(label, style.font, style.bold, style.size) : 0;
  const labelHeight = label ? SIGNATURE_LABEL_SIZE * LINE_HEIGHT + 4 : 0;
  const boxAt = (scale: number): Box => ({ x, y, width: Math.max(width * scale, labelWidth), height: height * scale + 3 + labelHeight });
  const scale = largestFit(boxAt, obstacles, { x: 0, y: 0, width: page.width, height: page.height }, 0.2);
  if (scale === null) return null;
  const image = { x, y, width: width * scale, height: height * scale };
  const ruleY = y + image.height + 2;
  return {
    image,
    rule: { x, y: ruleY, width: Math.max(image.width, labelWidth) },
    label: label ? { ...style, text: label, x, y: ruleY + 4, width: labelWidth } : null,
  };
}

/**
 * Where everything goes on the page, in points, with the placeholders filled: the template's text blocks as placed,
 * the issuer's name (a line of its own where no block shows `{{issuer_name}}`), the QR code, and the logo and the
 * signature fitted around them so that no image ever covers text. Pure: both the PDF and the PNG are drawn from it,
 * each measuring text with its own font engine, and tests measure its boxes.
 */
export function layoutPage(definition: TemplateDefinition, values: PlaceholderValues, measure: MeasureText, images: LayoutImages = { logo: null, signature: null }): PageLayout {
  const { width, height, frameInset, margin } = pageGeometry(definition);
  const blocks = definition.text_blocks.map((block) => {
    const style = { font: block.font ?? definition.font, bold: block.bold, size: block.font_size, color: block.color ?? definition.colors.text };
    const lines = placeLines(fillPlaceholders(block.text, values), block.x * width, block.y * height, block.width * width, style, block.align, measure);
    return { placeholders: placeholdersIn(block.text), lines };
  });
  const qr = { x: definition.qr_code.x * width, y: definition.qr_code.y * height, size: definition.qr_code.size * width };
  const qrBox = { x: qr.x, y: qr.y, width: qr.size, height: qr.size };
  // A block's box (around all of its lines) is what nothing may cover, not just the ink of each line.
  const blockBox = (block: { lines: PlacedLine[] }) => unionOf(block.lines.map(lineBox));
  const obstacles = [...blocks.map(blockBox).filter((box): box is Box => box !== null), qrBox];

  if (!blocks.some((block) => block.placeholders.includes('issuer_name'))) {
    const style = { font: definition.font, bold: false, size: ISSUER_LINE_SIZE, color: definition.colors.text };
    const text = `Issued by ${values.issuer_name ?? ''}`;
    const lines = freeSpotFor((x, y) => placeLines(text, x, y, width - 2 * margin, style, 'left', measure), obstacles, width, height, margin);
    blocks.push({ placeholders: ['issuer_name'], lines });
    obstacles.push(blockBox({ lines })!);
  }
  const kept = () => obstacles.map((obstacle) => grown(obstacle, IMAGE_CLEARANCE));
  const page = { width, height, margin };
  // With the clearance where the page has room for it; else merely clear of the text (shown, rather than left out).
  const logo = images.logo ? (placeLogo(definition, images.logo, kept(), page) ?? placeLogo(definition, images.logo, obstacles, page)) : null;
  if (logo) obstacles.push(logo);
  const signature = images.signature
    ? (placeSignature(definition, images.signature, kept(), page, measure) ?? placeSignature(definition, images.signature, obstacles, page, measure))
    : null;

  const boxOf = (placeholder: string) => {
    const block = blocks.find((candidate) => candidate.placeholders.includes(placeholder));
    return block ? blockBox(block) : null;
  };
  const signatureBox = signature ? unionOf([signature.image, { ...signature.rule, height: 1 }, ...(signature.label ? [lineBox(signature.label)] : [])]) : null;
  return {
    width,
    height,
    background: definition.colors.background,
    frame: frameOf(definition, width, height, frameInset),
    lines: blocks.flatMap((block) => block.lines),
    qr,
    logo,
    signature,
    boxes: {
      title: blocks[0] ? blockBox(blocks[0]) : null,
      name: boxOf('recipient_name'),
      program: boxOf('program_title'),
      date: boxOf('issue_date'),
      issuer: boxOf('issuer_name'),
      logo,
      signature: signatureBox,
      qr: qrBox,
      text: blocks.map(blockBox).filter((box): box is Box => box !== null),
    },
  };
}
