import { createHash } from 'node:crypto';
import { escapeHtml } from '@platform/service-kit';
import { brandingHeaderHtml, brandingStyle, brandingStyleHash, statusBandHtml, type CredentialBranding } from './credential-branding';
import type { PublicCredential } from './credentials.service';

/** The page's only style sheet, inline; the CSP allows exactly this text by its hash, and nothing from elsewhere. */
const STYLE = `
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1f2933}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:1.6rem;margin:0 0 4px}
.status{padding:12px 16px;border-radius:8px;font-weight:600;margin:16px 0}
.status.valid{background:#e3f9e5;color:#0e5a1c}
.status.revoked,.status.expired{background:#fde8e8;color:#8a1c1c}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:16px 0}
dt{font-weight:600}
dd{margin:0}
img.preview{width:100%;height:auto;border:1px solid #d3d7de;border-radius:4px;background:#fff}
a.download{display:inline-block;margin:12px 0;padding:10px 16px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none}
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * No script, no frames, no forms; images and the style sheets come only from this page's own origin (a branded page's
 * second sheet, the issuer's colours, is allowed by its hash too).
 */
export function credentialPageCsp(branding?: CredentialBranding): string {
  return [
    "default-src 'none'",
    "img-src 'self'",
    `style-src 'sha256-${STYLE_HASH}'${branding ? ` ${brandingStyleHash(branding)}` : ''}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CREDENTIAL_PAGE_CSP = credentialPageCsp();


/** The status in plain words: a revoked or expired certificate says so before anything else. */
export function statusSentence(credential: PublicCredential): string {
  if (credential.status === 'revoked') return `This certificate has been revoked by ${credential.organization_name} and is no longer valid.`;
  if (credential.status === 'expired') return `This certificate expired on ${credential.expires_on} and is no longer valid.`;
  return `This certificate is valid. It was issued by ${credential.organization_name}.`;
}

/** Whether the platform checked the issuer's name: anyone can sign up and call their organization anything. */
export function issuerSentence(credential: PublicCredential): string {
  return credential.issuer_verified
    ? 'The platform has verified that this issuer is who its name says.'
    : 'The platform has not verified this issuer’s name: it is what the issuer entered.';
}

function page(title: string, head: string, body: string, branded?: { style: string; top: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
${head}<style>${STYLE}</style>${branded ? `<style>${branded.style}</style>` : ''}
</head>
<body>${branded?.top ?? ''}<main>
${body}
</main></body>
</html>
`;
}

/** The public credential page, in the issuer's branding when given; every value from the database is escaped. */
export function credentialPageHtml(credential: PublicCredential, branding?: CredentialBranding): string {
  const e = escapeHtml;
  const title = `${credential.recipient_name} – ${credential.program_title}`;
  const description = `Certificate issued by ${credential.organization_name} on ${credential.issue_date}. Status: ${credential.status}.`;
  const head = [
    ['og:type', 'website'],
    ['og:title', title],
    ['og:description', description],
    ['og:url', credential.page_url],
    ['og:image', credential.document.png_url],
  ]
    .map(([property, content]) => `<meta property="${property}" content="${e(content!)}">\n`)
    .concat(`<meta name="twitter:card" content="summary_large_image">\n`, `<meta name="description" content="${e(description)}">\n`)
    .join('');
  const rows: Array<[string, string]> = [
    ['Recipient', credential.recipient_name],
    ['Program', credential.program_title],
    ['Issued by', `${credential.organization_name} (${credential.issuer_verified ? 'verified issuer' : 'name not verified'})`],
    ['Issue date', credential.issue_date],
    ['Expires on', credential.expires_on ?? 'Does not expire'],
    ['Certificate number', credential.certificate_number],
    ['Verification code', credential.verification_code],
  ];
  // Same-origin paths: the page works at whatever address serves it, and the CSP allows images from there only.
  const path = `/credentials/${encodeURIComponent(credential.verification_code)}`;
  const body = `<h1>${e(credential.program_title)}</h1>
<p>${e(credential.recipient_name)}</p>
<p class="status ${credential.status}" role="status" data-status="${credential.status}">${e(statusSentence(credential))}</p>
<p class="issuer" data-issuer-verified="${credential.issuer_verified}">${e(issuerSentence(credential))}</p>
<dl>
${rows.map(([label, value]) => `<dt>${e(label)}</dt><dd>${e(value)}</dd>`).join('\n')}
</dl>
<img class="preview" src="${e(`${path}/document.png`)}" alt="${e(`Certificate for ${credential.recipient_name}`)}">
<p><a class="download" href="${e(`${path}/document.pdf`)}" download>Download the certificate (PDF)</a></p>`;
  const branded = branding && { style: brandingStyle(branding), top: brandingHeaderHtml(branding, credential.organization_name, path) + statusBandHtml(credential.status) };
  return page(title, head, body, branded);
}

export function notFoundPageHtml(): string {
  return page('Certificate not found', '', '<h1>Certificate not found</h1>\n<p>No certificate has this verification code. Check the code or the link you were given.</p>');
}
