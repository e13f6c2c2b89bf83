import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Handlers } from '@platform/service-kit/operations';
import { adminPartnerIdOf } from '../partners';
import type { brandingContract } from './branding.contract';
import type { BrandingChange, BrandingRepository, BrandingRow } from './branding.repository';
import type { partnerBrandingResponse } from './branding.schema';

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

/** `/admin/v1/partner/branding`: the token's organization's branding; any role reads, owners and operators change it. */
export function brandingHandlers(branding: BrandingRepository): Handlers<typeof brandingContract> {
  return {
    getPartnerBranding: async ({ req }) => ({ status: 200, body: presentBranding(await branding.findBranding(adminPartnerIdOf(req))) }),
    updatePartnerBranding: async ({ body, req }) => {
      const partnerId = adminPartnerIdOf(req);
      const change: BrandingChange = {};
      if (body.display_name !== undefined) change.display_name = body.display_name;
      if (body.brand_color !== undefined) change.brand_color = body.brand_color?.toLowerCase() ?? null;
      if (body.logo !== undefined) {
        change.logo = body.logo?.bytes ?? null;
        change.logo_content_type = body.logo?.contentType ?? null;
      }
      const row = Object.keys(change).length ? await branding.upsertBranding(partnerId, change) : await branding.findBranding(partnerId);
      return { status: 200, body: presentBranding(row) };
    },
  };
}
