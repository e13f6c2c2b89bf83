import { createCanvas, loadImage } from '@napi-rs/canvas';
import jsQR from 'jsqr';
import { execFile } from 'node:child_process';
import request from 'supertest';

/**
 * pdf.js (inside pdf-parse) loads its worker with a dynamic import, which jest's module sandbox refuses; so the PDF is
 * parsed by pdf-parse in a plain Node process, from the bytes on stdin.
 */
const PARSE_SCRIPT = `
import { PDFParse } from ${JSON.stringify(require.resolve('pdf-parse'))};
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
process.stdout.write((await parser.getText()).text);
await parser.destroy();
`;

/** The text of every page of a PDF, as a reader would extract it. */
export function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', PARSE_SCRIPT], { maxBuffer: 10 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`pdf-parse failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
    child.stdin!.end(pdf);
  });
}

/** The text of the QR code found in a PNG, or null when no QR code can be read. */
export async function qrCodeIn(png: Buffer): Promise<string | null> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height);
  return jsQR(new Uint8ClampedArray(pixels.data), image.width, image.height)?.data ?? null;
}

/** The red, green and blue of one pixel of a PNG. */
export async function pixelAt(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const [red, green, blue] = context.getImageData(x, y, 1, 1).data;
  return [red!, green!, blue!];
}

/**
 * Where a PNG document shows magenta (the tests' logo colour), in PDF points: the smallest box holding every
 * magenta pixel of a page drawn at `pixelsPerPoint`.
 */
export async function magentaBoxIn(png: Buffer, pixelsPerPoint = 2): Promise<{ x: number; y: number; width: number; height: number }> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const at = (y * image.width + x) * 4;
      if (data[at]! > 240 && data[at + 1]! < 20 && data[at + 2]! > 240) [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  return { x: left / pixelsPerPoint, y: top / pixelsPerPoint, width: (right - left + 1) / pixelsPerPoint, height: (bottom - top + 1) / pixelsPerPoint };
}

/** Makes supertest collect a binary body as a Buffer. */
export function binary(res: request.Response, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}


/**
 * Starts a request now (supertest sends on `then`) and waits until the render pool has `queued` jobs waiting; the
 * answer is wrapped, since an async function returning a promise would wait for it.
 */
export async function queuedBehindHold<T>(pool: { load(): { queued: number } }, start: () => PromiseLike<T>, queued: number): Promise<{ answer: Promise<T> }> {
  let settled: T | undefined;
  const pending = Promise.resolve(start()).then((answer) => (settled = answer));
  while (pool.load().queued < queued) {
    if (settled !== undefined) throw new Error(`answered before it was queued: ${JSON.stringify(settled)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { answer: pending };
}
