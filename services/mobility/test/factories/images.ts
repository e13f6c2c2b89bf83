import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (8-bit RGB) of `width` × `height`, each pixel from `paint(x, y)`: logos and proof images for the tests
 * (browsers decode it, so the page's screenshots show it).
 */
export function pngImage(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set(paint(x, y), y * (width * 3 + 1) + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** A logo: a green square with a white ring. */
export function logoPng(): Buffer {
  return pngImage(48, 48, (x, y) => {
    const r = Math.hypot(x - 23.5, y - 23.5);
    return r > 12 && r < 17 ? [255, 255, 255] : [11, 110, 79];
  });
}

/** A "signature": a dark wave on white. */
export function signaturePng(): Buffer {
  return pngImage(160, 48, (x, y) => (Math.abs(y - (24 + 14 * Math.sin(x / 9))) < 1.6 ? [20, 20, 60] : [255, 255, 255]));
}

/** A "photo": a parcel (brown box) at a door (grey). */
export function photoPng(): Buffer {
  return pngImage(120, 90, (x, y) => (x > 35 && x < 85 && y > 40 && y < 80 ? [160, 110, 60] : y > 80 ? [90, 90, 90] : [200, 205, 210]));
}
