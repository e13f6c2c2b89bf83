/**
 * The body of a render worker thread (see `render-pool.ts`): it draws one document per message, off the service's
 * event loop, and answers with the bytes.
 */
import { parentPort } from 'node:worker_threads';
import { loadImage } from '@napi-rs/canvas';
import { releaseImage } from './document-images';
import { renderPdf, renderPng, type DocumentInput } from './document-renderers';
import type { WorkerReply, WorkerRequest } from './render-pool';

/** Structured cloning turns Buffers into plain Uint8Arrays; pdfkit and the canvas want Buffers. */
function asBuffer(bytes: Uint8Array | null): Buffer | null {
  return bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
}

async function handle(message: WorkerRequest): Promise<WorkerReply> {
  if (message.kind === 'hold') {
    // Blocks this thread until the pool releases it (tests and drills occupy the pool deliberately).
    Atomics.wait(new Int32Array(message.gate), 0, 0);
    return { id: message.id, ok: true, content: new Uint8Array(0) };
  }
  if (message.kind === 'decode') return { id: message.id, ok: true, content: await decodable(message.images) };
  const input: DocumentInput = { ...message.input, backgroundImage: asBuffer(message.input.backgroundImage), logo: asBuffer(message.input.logo), signature: asBuffer(message.input.signature) };
  const content = message.format === 'pdf' ? await renderPdf(input) : await renderPng(input);
  return { id: message.id, ok: true, content };
}

parentPort!.on('message', (message: WorkerRequest) => {
  handle(message).then(
    // Copied, not transferred: the canvas's buffers live in native memory, which cannot be transferred.
    (reply) => parentPort!.postMessage(reply),
    (error: unknown) => parentPort!.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply),
  );
});

/** A byte per image: 1 when it decodes. Each decoded image is released before the next is decoded. */
async function decodable(images: Uint8Array[]): Promise<Uint8Array> {
  const answer = new Uint8Array(images.length);
  for (const [index, bytes] of images.entries()) {
    try {
      const image = await loadImage(asBuffer(bytes)!);
      releaseImage(image);
      answer[index] = 1;
    } catch {
      answer[index] = 0;
    }
  }
  return answer;
}
