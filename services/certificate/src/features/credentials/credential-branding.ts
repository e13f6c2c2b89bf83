import { escapeHtml } from '@platform/service-kit/html';
import type { Knex } from '@platform/service-kit/db';
import { BUILT_IN_TEMPLATE } from '../documents';
import type { ImageMeta } from '../templates';
import type { TemplateDefinition } from '../templates';

/**
 * The issuer's branding on the public credential page: the colours and logo of the template the certificate was issued
 * with (the built-in layout's colours without one), so the page looks like the PDF it offers.
 */
export interface CredentialBranding {
  colors: TemplateDefinition['colors'];
  hasLogo: boolean;
}

export interface CredentialLogo {
  content: Buffer;
  contentType: string;
}

/** The template version of a certificate found by its (stored) verification code. */
function versionOf(db: Knex, code: string) {
  return db('certificates as c')
    .join('template_versions as v', (on) => on.on('v.template_id', 'c.template_id').andOn('v.version', 'c.template_version'))
    .where('c.verification_code', code);
}

export function createCredentialBrandingRepository(db: Knex) {
  return {
    async branding(code: string): Promise<CredentialBranding> {
      const row: { definition: TemplateDefinition; logo_meta: ImageMeta | null } | undefined = await versionOf(db, code).first('v.definition', 'v.logo_meta');
      return { colors: (row?.definition ?? BUILT_IN_TEMPLATE).colors, hasLogo: Boolean(row?.logo_meta) };
    },
    async logo(code: string): Promise<CredentialLogo | null> {
      const row: { logo: Buffer | null; logo_meta: ImageMeta | null } | undefined = await versionOf(db, code).first('v.logo', 'v.logo_meta');
      return row?.logo && row.logo_meta ? { content: row.logo, contentType: row.logo_meta.content_type } : null;
    },
  };
}

export type CredentialBrandingRepository = ReturnType<typeof createCredentialBrandingRepository>;

/** WCAG relative luminance of a #RRGGBB colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Text on a brand colour: white or near-black, whichever reads better (the issuer's colours may be anything). */
export const textOn = (background: string): string => (contrast(background, '#FFFFFF') >= contrast(background, '#111111') ? '#FFFFFF' : '#111111');

/**
 * The branding's style sheet: the accent colour on the header band and the download button, the template's background
 * behind the header. Inline like the page's own sheet, and allowed by its hash in the page's CSP.
 */
export function brandingStyle(branding: CredentialBranding): string {
  const { accent, background, text } = branding.colors;
  const headerText = contrast(background, text) >= 4.5 ? text : textOn(background);
  // The outlined button (the verifiable credential download) keeps the default blue when the accent is too light on white.
  const outlineOnWhite = contrast(accent, '#FFFFFF') >= 4.5 ? accent : '#1D4ED8';
  return `
header.brand{display:flex;align-items:center;gap:16px;padding:16px 24px;background:${background};color:${headerText};border-top:6px solid ${accent};border-bottom:1px solid #d3d7de}
header.brand img.logo{max-height:56px;max-width:200px;width:auto;height:auto}
header.brand .issuer{font-weight:600;font-size:1.1rem}
a.download{background:${accent};color:${textOn(accent)}}
a.download.secondary{background:#fff;color:${outlineOnWhite};border-color:${outlineOnWhite}}
.band{padding:14px 24px;background:#b91c1c;color:#fff;font-weight:700;font-size:1.4rem;letter-spacing:.08em;text-align:center}
`;
}

/** The header: the issuer's logo (served from the page's own origin) and name. */
export function brandingHeaderHtml(branding: CredentialBranding, organizationName: string, pagePath: string): string {
  const e = escapeHtml;
  const logo = branding.hasLogo ? `<img class="logo" src="${e(`${pagePath}/logo`)}" alt="${e(`${organizationName} logo`)}">` : '';
  return `<header class="brand">${logo}<span class="issuer">${e(organizationName)}</span></header>\n`;
}

/** A red band across the top of a revoked, expired or test certificate's page, as on its PDF and PNG. */
export function statusBandHtml(status: string): string {
  const text = { revoked: 'REVOKED', expired: 'EXPIRED', test: 'TEST' }[status];
  if (!text) return '';
  return `<div class="band" data-band="${status}">${text}</div>\n`;
}
