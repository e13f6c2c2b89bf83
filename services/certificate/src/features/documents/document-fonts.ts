import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import type { TemplateFont } from '../templates';

/** The fixed font list maps to DejaVu TrueType files shipped in an npm package: nothing is fetched at render time. */
const FONT_DIRECTORY = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

const FILES: Record<TemplateFont, { regular: string; bold: string; family: string }> = {
  sans: { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', family: 'DejaVu Sans' },
  serif: { regular: 'DejaVuSerif.ttf', bold: 'DejaVuSerif-Bold.ttf', family: 'DejaVu Serif' },
  mono: { regular: 'DejaVuSansMono.ttf', bold: 'DejaVuSansMono-Bold.ttf', family: 'DejaVu Sans Mono' },
};

const loaded = new Map<string, Buffer>();

/** A font's TrueType bytes, read from disk once per process. */
export function fontBytes(font: TemplateFont, bold: boolean): Buffer {
  const file = path.join(FONT_DIRECTORY, bold ? FILES[font].bold : FILES[font].regular);
  let bytes = loaded.get(file);
  if (!bytes) {
    bytes = readFileSync(file);
    loaded.set(file, bytes);
  }
  return bytes;
}

let registered = false;

/** The canvas family name of a font; the files are registered with the canvas library once per process. */
export function canvasFamily(font: TemplateFont): string {
  if (!registered) {
    for (const { regular, bold, family } of Object.values(FILES)) {
      GlobalFonts.registerFromPath(path.join(FONT_DIRECTORY, regular), family);
      GlobalFonts.registerFromPath(path.join(FONT_DIRECTORY, bold), family);
    }
    registered = true;
  }
  return FILES[font].family;
}
