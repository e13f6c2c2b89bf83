import { fillPlaceholders, type PlaceholderValues } from '../templates/template-placeholders';
import type { TemplateDefinition, TemplateFont } from '../templates/templates.schema';

/** Page sizes in PDF points (1/72 inch), portrait. */
const PAGE_SIZES = { A4: [595.28, 841.89], letter: [612, 792] } as const;
export const LINE_HEIGHT = 1.25;

export interface PlacedLine {
  text: string;
  x: number;
  y: number;
  font: TemplateFont;
  bold: boolean;
  size: number;
  color: string;
}

export interface PageLayout {
  width: number;
  height: number;
  background: string;
  lines: PlacedLine[];
  qr: { x: number; y: number; size: number };
  logo: { x: number; y: number; width: number };
}

/** A band across the top of the page saying the certificate is no longer valid, drawn over everything else. */
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
} as const;

/** The band of a revoked or expired certificate (none for a valid one), centred on the page; text in bold sans. */
export function statusBand(status: 'valid' | 'revoked' | 'expired', width: number, height: number, measure: (text: string, size: number) => number): StatusBand | null {
  if (status === 'valid') return null;
  const { title, note } = BAND_TEXT[status];
  const bandHeight = Math.max(56, height * 0.11);
  const titleSize = bandHeight * 0.42;
  const noteSize = bandHeight * 0.16;
  const top = bandHeight * 0.12;
  return {
    y: 0,
    height: bandHeight,
    color: '#B91C1C',
    title: { text: title, x: (width - measure(title, titleSize)) / 2, y: top, size: titleSize },
    note: { text: note, x: (width - measure(note, noteSize)) / 2, y: top + titleSize * LINE_HEIGHT, size: noteSize },
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

/**
 * Where every line of text, the QR code and the logo go on the page, in points, with the placeholders filled. Both the
 * PDF and the PNG are drawn from this one layout, each measuring text with its own font engine.
 */
export function layoutPage(definition: TemplateDefinition, values: PlaceholderValues, measure: MeasureText): PageLayout {
  const [short, long] = PAGE_SIZES[definition.page_size];
  const [width, height] = definition.orientation === 'landscape' ? [long, short] : [short, long];
  const lines = definition.text_blocks.flatMap((block) => {
    const font = block.font ?? definition.font;
    const boxWidth = block.width * width;
    const text = fillPlaceholders(block.text, values);
    return wrapText(text, boxWidth, (line) => measure(line, font, block.bold, block.font_size)).map((line, index): PlacedLine => {
      const lineWidth = measure(line, font, block.bold, block.font_size);
      const offset = block.align === 'left' ? 0 : block.align === 'right' ? boxWidth - lineWidth : (boxWidth - lineWidth) / 2;
      return {
        text: line,
        x: block.x * width + offset,
        y: block.y * height + index * block.font_size * LINE_HEIGHT,
        font,
        bold: block.bold,
        size: block.font_size,
        color: block.color ?? definition.colors.text,
      };
    });
  });
  const qrSize = definition.qr_code.size * width;
  return {
    width,
    height,
    background: definition.colors.background,
    lines,
    qr: { x: definition.qr_code.x * width, y: definition.qr_code.y * height, size: qrSize },
    logo: { x: definition.logo_placement.x * width, y: definition.logo_placement.y * height, width: definition.logo_placement.width * width },
  };
}
