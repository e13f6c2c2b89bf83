import { createHash } from 'node:crypto';
import { createCanvas, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import { canvasFamily } from '../documents';
import { textOn } from './credential-branding';
import { promiseLru } from './promise-lru';

/**
 * The badge picture of a credential (its Open Badges `achievement.image`, `GET /credentials/{code}/badge.png`): a round
 * badge in the template's accent colour holding the template's logo when it has one, else the programme's initials and
 * title. Drawn with the canvas library the PNG documents are drawn with (no browser, nothing fetched), and kept: the
 * same inputs always draw the same picture, so it is drawn once per programme and logo, not once per request.
 */
export const BADGE_SIZE_PX = 400;

export interface BadgeInputs {
  programTitle: string;
  accent: string;
  /** The template's logo (PNG or JPEG), drawn in the middle of the badge. */
  logo: Buffer | null;
}

/** Badges kept (about 20 KB each): the programmes of the credentials being looked at. */
const badges = promiseLru<Buffer>(200);

const SMALL_WORDS = new Set(['a', 'an', 'and', 'for', 'in', 'of', 'on', 'the', 'to', 'with']);

/** Up to three initials of the title's words (small words skipped unless nothing else is left). */
export function initialsOf(title: string): string {
  const words = title.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const significant = words.filter((word) => !SMALL_WORDS.has(word.toLowerCase()));
  return (significant.length ? significant : words)
    .slice(0, 3)
    .map((word) => [...word][0]!.toUpperCase())
    .join('');
}

/** The title on at most two lines of `maxWidth` pixels, the second cut with an ellipsis when it does not fit. */
function titleLines(context: SKRSContext2D, title: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (context.measureText(next).width <= maxWidth || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= 2) return lines;
  let last = `${lines[1]} ${lines.slice(2).join(' ')}`;
  while (last.length > 1 && context.measureText(`${last}…`).width > maxWidth) last = last.slice(0, -1).trimEnd();
  return [lines[0]!, `${last}…`];
}

async function draw({ programTitle, accent, logo }: BadgeInputs): Promise<Buffer> {
  const size = BADGE_SIZE_PX;
  const middle = size / 2;
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  const ink = textOn(accent);
  // The disc in the accent colour, a thin ring inside its edge.
  context.fillStyle = accent;
  context.beginPath();
  context.arc(middle, middle, middle - 4, 0, Math.PI * 2);
  context.fill();
  context.strokeStyle = ink;
  context.lineWidth = 4;
  context.beginPath();
  context.arc(middle, middle, middle - 18, 0, Math.PI * 2);
  context.stroke();

  if (logo) {
    // The logo on a white disc, scaled to fit a square inside it, its proportions kept.
    context.fillStyle = '#FFFFFF';
    context.beginPath();
    context.arc(middle, middle, middle - 30, 0, Math.PI * 2);
    context.fill();
    const image = await loadImage(logo);
    const box = (middle - 30) * Math.SQRT2 * 0.9;
    const scale = Math.min(box / image.width, box / image.height);
    const [width, height] = [image.width * scale, image.height * scale];
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, middle - width / 2, middle - height / 2, width, height);
  } else {
    const family = canvasFamily('sans');
    context.fillStyle = ink;
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    const initials = initialsOf(programTitle) || '★';
    context.font = `bold ${initials.length > 2 ? 110 : 140}px "${family}"`;
    context.fillText(initials, middle, middle - 30);
    context.font = `bold 24px "${family}"`;
    titleLines(context, programTitle, size * 0.62).forEach((line, index) => context.fillText(line, middle, middle + 70 + index * 30));
  }
  return canvas.toBuffer('image/png');
}

/** The badge as PNG bytes, drawn once for the same inputs (the least recently used are dropped past the budget). */
export async function badgePng(inputs: BadgeInputs): Promise<Buffer> {
  const key = createHash('sha256')
    .update(JSON.stringify([inputs.programTitle, inputs.accent]))
    .update(inputs.logo ?? '')
    .digest('base64url');
  return badges.get(key, () => draw(inputs));
}
