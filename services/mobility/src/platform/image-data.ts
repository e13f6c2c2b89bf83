import { z } from 'zod';

/** The raster types a partner logo or a proof-of-delivery image may be: never SVG (it can carry script). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export interface ImageData {
  contentType: ImageType;
  bytes: Buffer;
}

/** Each type's first bytes: the declared type must match what the bytes are. */
const SIGNATURES: Record<ImageType, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const DATA_URL = /^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * A small image sent inline as a `data:image/{png|jpeg|webp};base64,…` URL, decoded to bytes: the platform stores them
 * and serves them from its own origin, so a page showing the image asks nothing of anyone else. Refused (422) when it is
 * not such a URL, is larger than `maxBytes` decoded, or its bytes are not the type it declares.
 */
export function imageDataUrlSchema(maxBytes: number, description: string) {
  return z
    .string()
    .max(Math.ceil((maxBytes * 4) / 3) + 40)
    .transform((value, ctx): ImageData => {
      const match = DATA_URL.exec(value);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: 'must be a data:image/png, image/jpeg or image/webp;base64 URL' });
        return z.NEVER;
      }
      const contentType = match[1] as ImageType;
      const bytes = Buffer.from(match[2]!, 'base64');
      if (bytes.length === 0 || bytes.length > maxBytes) {
        ctx.addIssue({ code: 'custom', message: `must be an image of at most ${maxBytes} bytes` });
        return z.NEVER;
      }
      if (!SIGNATURES[contentType](bytes)) {
        ctx.addIssue({ code: 'custom', message: `is not a ${contentType} image` });
        return z.NEVER;
      }
      return { contentType, bytes };
    })
    .meta({ description, examples: ['data:image/png;base64,iVBORw0KGgo…'] });
}
