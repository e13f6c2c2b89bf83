import { createHash } from 'node:crypto';
import { createCanvas, loadImage, type Canvas, type Image } from '@napi-rs/canvas';
import { readImageSize } from '../templates';

/**
 * A template's images as the renderers draw them: decoded once per template image and size, at the largest size they
 * are drawn at, instead of once per document at the size they were uploaded at.
 *
 * The canvas library decodes an image whole (a 4000 × 4000 background is 64 MB of pixels, more while it is drawn
 * scaled) into native memory that V8 does not see, so it is freed only when a garbage collection happens to find the
 * small JavaScript object holding it: renders in a row piled up decoded images until the service went over its
 * container's memory limit. Here the full-size decode lives only until it has been drawn at the target size, and is
 * then released explicitly.
 */

/** Pixels per PDF point at which a PDF embeds an image it had to decode: 300 dpi, print quality at the drawn size. */
export const PDF_PIXELS_PER_POINT = 300 / 72;

/** Bytes of prepared images each render worker keeps for the next documents (an A4 page at 144 dpi is 8 MB). */
const CACHE_BUDGET_BYTES = 48 * 1024 * 1024;

/** The smallest valid PNG: given to an Image as its new source, it makes the library drop the decoded pixels at once. */
const ONE_PIXEL_PNG = createCanvas(1, 1).toBuffer('image/png');

type Drawable = Canvas | Image;

interface Prepared<T> {
  value: T;
  bytes: number;
  release(): void;
}

const cache = new Map<string, Prepared<unknown>>();
let cachedBytes = 0;

/** Frees an Image's decoded pixels now rather than at some later garbage collection. */
export function releaseImage(image: Image): void {
  image.src = ONE_PIXEL_PNG;
}

/** Frees a canvas's pixels now (the library drops its surface when the size changes). */
export function releaseCanvas(canvas: Canvas): void {
  canvas.width = 0;
  canvas.height = 0;
}

let rendersInFlight = 0;

/** Drops the least recently used entries over the budget (only between renders: never an image a render is drawing). */
function trimPreparedImages(): void {
  for (const [key, entry] of cache) {
    if (cachedBytes <= CACHE_BUDGET_BYTES) break;
    cache.delete(key);
    cachedBytes -= entry.bytes;
    entry.release();
  }
}

/** Runs a render that draws prepared images; when no render is left running, the cache is trimmed to its budget. */
export async function usingPreparedImages<T>(render: () => Promise<T>): Promise<T> {
  rendersInFlight++;
  try {
    return await render();
  } finally {
    if (--rendersInFlight === 0) trimPreparedImages();
  }
}

async function cached<T>(key: string, make: () => Promise<Prepared<T>>): Promise<T> {
  const hit = cache.get(key) as Prepared<T> | undefined;
  if (hit) {
    cache.delete(key); // re-inserted last: most recently used
    cache.set(key, hit);
    return hit.value;
  }
  const entry = await make();
  cache.set(key, entry);
  cachedBytes += entry.bytes;
  return entry.value;
}

/** A JPEG starts with a start-of-image marker (the upload check admits PNG and JPEG only). */
const isJpeg = (bytes: Buffer) => bytes.length > 2 && bytes[0] === 0xff && bytes[1] === 0xd8;

const digest = (bytes: Buffer) => createHash('sha1').update(bytes).digest('base64url');

/** The image decoded and drawn at `width` × `height` pixels; the full-size decode is released before this returns. */
async function decodedAt(bytes: Buffer, width: number, height: number): Promise<Canvas> {
  const image = await loadImage(bytes);
  try {
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, 0, 0, width, height);
    // The canvas records drawing and rasterises it on demand: read a pixel so the scaled copy exists before its source is released.
    context.getImageData(0, 0, 1, 1);
    return canvas;
  } finally {
    releaseImage(image);
  }
}

/** The pixel size to decode an image at for a box of `width` × `height` pixels: never more than the image has. */
function fitted(natural: { width: number; height: number }, width: number, height: number) {
  return { width: Math.min(natural.width, Math.max(1, Math.ceil(width))), height: Math.min(natural.height, Math.max(1, Math.ceil(height))) };
}

/**
 * The image for drawing on a canvas in a box of at most `width` × `height` pixels: decoded at the box's size where it
 * is larger, else as it is. The same object for every document of the template: draw it, never change it.
 */
export async function canvasImage(bytes: Buffer, width: number, height: number): Promise<Drawable> {
  const natural = readImageSize(bytes);
  const target = natural ? fitted(natural, width, height) : null;
  const key = `canvas:${digest(bytes)}:${target ? `${target.width}x${target.height}` : 'as-is'}`;
  return cached<Drawable>(key, async () => {
    if (!natural || !target || (target.width === natural.width && target.height === natural.height)) {
      const image = await loadImage(bytes);
      return { value: image, bytes: image.width * image.height * 4, release: () => releaseImage(image) };
    }
    const canvas = await decodedAt(bytes, target.width, target.height);
    return { value: canvas, bytes: target.width * target.height * 4, release: () => releaseCanvas(canvas) };
  });
}

/**
 * The image for a PDF drawn in a box of at most `width` × `height` points. A JPEG goes in as it is (a PDF embeds it
 * without decoding it); a PNG with more than 300 dpi at that size is scaled to 300 dpi (still PNG, lossless), since the
 * PDF library decodes it in JavaScript for every document; any other image goes in as it is.
 */
export async function pdfImage(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  const natural = readImageSize(bytes);
  if (!natural || isJpeg(bytes)) return bytes;
  const target = fitted(natural, width * PDF_PIXELS_PER_POINT, height * PDF_PIXELS_PER_POINT);
  if (target.width === natural.width && target.height === natural.height) return bytes;
  return cached<Buffer>(`pdf:${digest(bytes)}:${target.width}x${target.height}`, async () => {
    const canvas = await decodedAt(bytes, target.width, target.height);
    try {
      const png = canvas.toBuffer('image/png');
      return { value: png, bytes: png.length, release: () => undefined };
    } finally {
      releaseCanvas(canvas);
    }
  });
}
