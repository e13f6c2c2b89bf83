import { loadImage } from '@napi-rs/canvas';
import { ValidationError } from '@platform/service-kit';
import { readHeader, type ImageMeta } from './image-size';

/** A background image or logo after its checks: the bytes and what they were found to be. */
export interface CheckedImage {
  bytes: Buffer;
  meta: ImageMeta;
}

export type { ImageMeta } from './image-size';

export const MAX_IMAGE_BYTES = 1024 * 1024;
/** Decoding needs width × height × 4 bytes: 4000 px a side caps one image at 64 MB of pixels. */
export const MAX_IMAGE_SIDE = 4000;

/**
 * An upload is accepted only when its bytes are a PNG or JPEG (the magic bytes decide, not a declared type), its size
 * and sides are within the limits, and it decodes; anything else is a 422 naming the field.
 */
export async function checkImage(path: string, base64: string): Promise<CheckedImage> {
  const fail = (message: string) => new ValidationError([{ path, message }]);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw fail('must be a base64-encoded PNG or JPEG image');
  if (bytes.length > MAX_IMAGE_BYTES) throw fail(`must be at most ${MAX_IMAGE_BYTES} bytes (is ${bytes.length})`);
  const header = readHeader(bytes);
  if (!header) throw fail('must be a PNG or JPEG image (its content is neither)');
  if (header.width < 1 || header.height < 1 || header.width > MAX_IMAGE_SIDE || header.height > MAX_IMAGE_SIDE) {
    throw fail(`must be between 1 and ${MAX_IMAGE_SIDE} pixels on each side (is ${header.width}×${header.height})`);
  }
  try {
    await loadImage(bytes);
  } catch {
    throw fail(`is not a readable ${header.content_type === 'image/png' ? 'PNG' : 'JPEG'} image`);
  }
  return { bytes, meta: { ...header, size_bytes: bytes.length } };
}
