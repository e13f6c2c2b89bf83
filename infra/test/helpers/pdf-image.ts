/**
 * The first page of a PDF as a PNG, for the docs: `pdftoppm` (poppler) when the machine has it, else pdf.js through
 * pdf-parse's `getScreenshot` (the certificate service's test dependency, rendered with @napi-rs/canvas) in a plain
 * Node process. Undefined when neither can (the caller then keeps a screenshot of the page instead).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const certificateService = path.resolve(__dirname, '../../../services/certificate');

const RENDER_SCRIPT = (pdfParse: string) => `
import { PDFParse } from ${JSON.stringify(pdfParse)};
import { readFileSync, writeFileSync } from 'node:fs';
const parser = new PDFParse({ data: new Uint8Array(readFileSync(process.argv[1])) });
const shots = await parser.getScreenshot({ first: 1, scale: 1.6 });
writeFileSync(process.argv[2], Buffer.from(shots.pages[0].data));
await parser.destroy();
`;

export function firstPageAsPng(pdf: Buffer): Buffer | undefined {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-image-'));
  try {
    const input = path.join(dir, 'document.pdf');
    writeFileSync(input, pdf);
    try {
      execFileSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', input, path.join(dir, 'page')], { stdio: 'ignore' });
      if (existsSync(path.join(dir, 'page.png'))) return readFileSync(path.join(dir, 'page.png'));
    } catch {
      // No poppler on this machine: pdf.js below.
    }
    try {
      const pdfParse = require.resolve('pdf-parse', { paths: [certificateService] });
      const output = path.join(dir, 'page-pdfjs.png');
      execFileSync(process.execPath, ['--input-type=module', '-e', RENDER_SCRIPT(pdfParse), input, output], { stdio: 'ignore', cwd: certificateService });
      return existsSync(output) ? readFileSync(output) : undefined;
    } catch {
      return undefined;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
