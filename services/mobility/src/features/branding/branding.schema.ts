import { z } from 'zod';
import { dateTime, integer } from '../../platform/schema-types';
import { imageDataUrlSchema } from '../../platform/image-data';
import { BRAND_COLOR_PATTERN, contrastOnWhite, MIN_BRAND_CONTRAST } from './brand-color';

/** What the branding feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const partnerBrandingResponse = z.object({
  display_name: z.string().nullable().meta({ description: "Shown to recipients; null: the organization's name is shown." }),
  brand_color: z.string().regex(/^#[0-9a-f]{6}$/).nullable(),
  logo: z.object({
    content_type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
    bytes: integer(),
    sha256: z.string(),
  }).nullable().meta({ description: 'The stored logo (its bytes are served only on tracking pages, from this origin).' }),
  updated_at: dateTime().nullable().meta({ description: 'Null until the branding was first set.' }),
}).meta({ id: 'PartnerBranding', description: 'What the tracking page shows of the organization.', example: {'display_name':'Mama Put Kitchen','brand_color':'#0b6e4f','logo':{'content_type':'image/png','bytes':2048,'sha256':'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'},'updated_at':'2026-11-26T09:00:00.000Z'} });

/** What the branding operations read: the change's body. */

/** A logo is shown at most 40 px high: 64 KiB of PNG, JPEG or WebP is plenty. */
export const LOGO_MAX_BYTES = 64 * 1024;

export const brandingSchema = z
  .object({
    display_name: z.string().trim().min(1).max(100).nullable().optional().meta({ description: 'The name the recipient sees on the tracking page; `null` shows the organization\'s name.' }),
    brand_color: z
      .string()
      .regex(BRAND_COLOR_PATTERN, 'must be a colour as #rrggbb')
      .refine((color) => contrastOnWhite(color) >= MIN_BRAND_CONTRAST, `must contrast at least ${MIN_BRAND_CONTRAST}:1 with white (the route line is drawn in it)`)
      .nullable()
      .optional()
      .meta({ description: 'Accent colour of the page (the route line and the header bar), `#rrggbb`, at least 3:1 against white; `null` for the default.' }),
    logo: imageDataUrlSchema(LOGO_MAX_BYTES, 'The logo as a `data:image/{png|jpeg|webp};base64,…` URL of at most 64 KiB: stored and served by the platform (never fetched from elsewhere). `null` removes it.')
      .nullable()
      .optional(),
  })
  .strict()
  .meta({
    id: 'PartnerBrandingChange',
    description: 'Only the fields given change; `null` clears one.',
    examples: [{ display_name: 'Mama Put Kitchen', brand_color: '#0b6e4f' }],
  });
