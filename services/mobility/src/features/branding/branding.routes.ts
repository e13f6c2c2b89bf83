import { createHash } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '@platform/service-kit';
import { imageDataUrlSchema } from '../../platform/image-data';
import { adminPartnerIdOf } from '../partners';
import { BRAND_COLOR_PATTERN, contrastOnWhite, MIN_BRAND_CONTRAST } from './brand-color';
import type { BrandingChange, BrandingRepository, BrandingRow } from './branding.repository';
import type { partnerBrandingResponse } from './branding.schema';

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

/** The branding as the admin API answers it: the logo by its type, size and SHA-256, never its bytes. */
function presentBranding(row: BrandingRow | undefined): z.input<typeof partnerBrandingResponse> {
  return {
    display_name: row?.display_name ?? null,
    brand_color: row?.brand_color ?? null,
    logo: row?.logo && row.logo_content_type
      ? { content_type: row.logo_content_type, bytes: row.logo.length, sha256: createHash('sha256').update(row.logo).digest('hex') }
      : null,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

/** `/admin/v1/partner/branding`: the token's organization's branding; any role reads, `requireChange` guards changes. */
export function brandingAdminRoutes(branding: BrandingRepository, requireChange: RequestHandler): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const partnerId = adminPartnerIdOf(req);
    res.json(presentBranding(await branding.findBranding(partnerId)));
  });

  router.patch('/', requireChange, async (req, res) => {
    const partnerId = adminPartnerIdOf(req);
    const input = parseOrThrow(brandingSchema, req.body ?? {});
    const change: BrandingChange = {};
    if (input.display_name !== undefined) change.display_name = input.display_name;
    if (input.brand_color !== undefined) change.brand_color = input.brand_color?.toLowerCase() ?? null;
    if (input.logo !== undefined) {
      change.logo = input.logo?.bytes ?? null;
      change.logo_content_type = input.logo?.contentType ?? null;
    }
    const row = Object.keys(change).length ? await branding.upsertBranding(partnerId, change) : await branding.findBranding(partnerId);
    res.json(presentBranding(row));
  });

  return router;
}
