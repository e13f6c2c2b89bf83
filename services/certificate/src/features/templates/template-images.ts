import { ValidationError } from '@platform/service-kit/errors';
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

/** An uploaded image whose header passed, to be decoded once (the path names it in a 422). */
export interface ImageToDecode {
  path: string;
  bytes: Buffer;
  contentType: ImageMeta['content_type'];
}

/**
 * Decodes the images in the bounded render pool, within the organization's render budget, and refuses with a 422
 * naming the first that does not decode (or a 503 with Retry-After when the budget or the pool is full).
 */
export type DecodeImages = (organizationId: string, images: ImageToDecode[]) => Promise<void>;

/** The 422 for an image whose header is valid but whose content does not decode. */
export function unreadableImage(image: ImageToDecode): ValidationError {
  return new ValidationError([{ path: image.path, message: `is not a readable ${image.contentType === 'image/png' ? 'PNG' : 'JPEG'} image` }]);
}

/**
 * An upload's header check, before anything is decoded: its bytes are a PNG or JPEG (the magic bytes decide, not a
 * declared type) and its size and sides are within the limits; anything else is a 422 naming the field. Whether it
 * decodes is checked later, after the template's pixel total, in the render pool (`DecodeImages`).
 */
export function checkImage(path: string, base64: string): CheckedImage {
  const fail = (message: string) => new ValidationError([{ path, message }]);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw fail('must be a base64-encoded PNG or JPEG image');
  if (bytes.length > MAX_IMAGE_BYTES) throw fail(`must be at most ${MAX_IMAGE_BYTES} bytes (is ${bytes.length})`);
  const header = readHeader(bytes);
  if (!header) throw fail('must be a PNG or JPEG image (its content is neither)');
  if (header.width < 1 || header.height < 1 || header.width > MAX_IMAGE_SIDE || header.height > MAX_IMAGE_SIDE) {
    throw fail(`must be between 1 and ${MAX_IMAGE_SIDE} pixels on each side (is ${header.width}×${header.height})`);
  }
  return { bytes, meta: { ...header, size_bytes: bytes.length } };
}
