/** The tracking page's branding through the mobility admin API (`/admin/v1/partner/branding`). */
import { request } from '../../api/http';
import type { MobilitySchemas } from '../../api/types';

export type PartnerBranding = MobilitySchemas['PartnerBranding'];
export type BrandingChange = MobilitySchemas['PartnerBrandingChange'];

export const getBranding = () => request<PartnerBranding>('mobility', '/partner/branding');
export const updateBranding = (body: BrandingChange) => request<PartnerBranding>('mobility', '/partner/branding', { method: 'PATCH', body });

/** The tracking page's accent when none is set (tracking-text.ts DEFAULT_BRAND_COLOR). */
export const DEFAULT_BRAND_COLOR = '#1d4ed8';
/** As the API checks it: the route line is drawn in the colour on white, so at least 3:1 (WCAG, graphics). */
export const MIN_CONTRAST = 3;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** The API's limit on a logo (64 KiB of PNG, JPEG or WebP). */
export const LOGO_MAX_BYTES = 64 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** The colour's contrast against white, as the API reckons it. */
export function contrastOnWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 1.05 / (0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5) + 0.05);
}
