import { loadImage } from '@napi-rs/canvas';
import { ValidationError } from '@platform/service-kit';

/** A background image or logo after its checks: the bytes and what they were found to be. */
export interface CheckedImage {
  bytes: Buffer;
  meta: ImageMeta;
}

export interface ImageMeta {
  content_type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  size_bytes: number;
}

export const MAX_IMAGE_BYTES = 1024 * 1024;
/** Decoding needs width × height × 4 bytes: 4000 px a side caps one image at 64 MB of pixels. */
export const MAX_IMAGE_SIDE = 4000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

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

/** The pixel size of a PNG or JPEG read from its header (null for anything else), without decoding it. */
export function readImageSize(bytes: Buffer): { width: number; height: number } | null {
  const header = readHeader(bytes);
  return header ? { width: header.width, height: header.height } : null;
}

function readHeader(bytes: Buffer): Omit<ImageMeta, 'size_bytes'> | null {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { content_type: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return readJpegSize(bytes);
  return null;
}

/** Walks the JPEG segments to the first start-of-frame marker, which holds the height and width. */
function readJpegSize(bytes: Buffer): Omit<ImageMeta, 'size_bytes'> | null {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    const isStartOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) return { content_type: 'image/jpeg', height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + bytes.readUInt16BE(offset + 2);
  }
  return null;
}
