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

/** Makes supertest collect a binary body as a Buffer. */
export function binary(res: request.Response, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

