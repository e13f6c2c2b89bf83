/** A background image, logo or signature as found on upload (stored beside its bytes). */
export interface ImageMeta {
  content_type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  size_bytes: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The pixel size of a PNG or JPEG read from its header (null for anything else), without decoding it. */
export function readImageSize(bytes: Buffer): { width: number; height: number } | null {
  const header = readHeader(bytes);
  return header ? { width: header.width, height: header.height } : null;
}

export function readHeader(bytes: Buffer): Omit<ImageMeta, 'size_bytes'> | null {
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
