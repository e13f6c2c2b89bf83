import { escapeHtml } from '@platform/service-kit/html';
import { brandingHeaderHtml, brandingStyle, statusBandHtml, type CredentialBranding } from './credential-branding';
import type { PublicCredential } from './credentials.service';
import { CREDENTIAL_PAGE_CSP, page, pageCsp, verifyCodeBox } from './page-shell';
import { linkedInAddToProfileUrl } from './share-links';

/** The credential page's CSP: the shared one, plus the hash of the branding sheet when the page is branded. */
export function credentialPageCsp(branding?: CredentialBranding): string {
  return branding ? pageCsp([brandingStyle(branding)]) : CREDENTIAL_PAGE_CSP;
}

export { CREDENTIAL_PAGE_CSP };

/** The status in plain words: a test, revoked or expired certificate says so before anything else. */
export function statusSentence(credential: PublicCredential): string {
  if (credential.status === 'test') return `Test certificate — not a real credential. ${credential.issuer_name} issued it in test mode; it proves nothing.`;
  if (credential.status === 'revoked') {
    const on = credential.revoked_on_text ? ` on ${credential.revoked_on_text}` : '';
    return `This certificate was revoked by ${credential.issuer_name}${on} and is no longer valid.`;
  }
  if (credential.status === 'expired') return `This certificate expired on ${credential.expires_on_text} and is no longer valid.`;
  return `This certificate is valid. It was issued by ${credential.issuer_name}.`;
}

/** Sharing is offered only for a certificate that is valid now: add to LinkedIn, copy the page's link. */
function shareActions(credential: PublicCredential): string {
  if (credential.status !== 'valid') return '';
  const e = escapeHtml;
  const linkedIn = linkedInAddToProfileUrl({
    programTitle: credential.program_title,
    organizationName: credential.organization_name,
    issueDate: credential.issue_date,
    expiresOn: credential.expires_on,
    pageUrl: credential.page_url,
    credentialId: credential.verification_code,
  });
  return `<div class="actions" id="share">
<a class="share linkedin" href="${e(linkedIn)}" target="_blank" rel="noopener noreferrer">Add to LinkedIn profile</a>
<button type="button" class="secondary" data-copy="${e(credential.page_url)}">Copy link</button>
<span id="copy-status" aria-live="polite"></span>
</div>`;
}

/** Whether the platform checked the issuer's name: anyone can sign up and call their organization anything. */
export function issuerSentence(credential: PublicCredential): string {
  return credential.issuer_verified
    ? 'The platform has verified that this issuer is who its name says.'
    : 'The platform has not verified this issuer’s name: it is what the issuer entered.';
}

/** Whether the issuer proved a domain: `verified domain …` (its credentials name it as the issuer's URL) or not. */
export function identitySentence(credential: PublicCredential): string {
  return credential.issuer_domain
    ? `${credential.organization_name}: ${credential.issuer_identity} (the issuer proved it controls ${credential.issuer_domain}).`
    : `${credential.organization_name}: ${credential.issuer_identity} (the issuer has not proved a domain).`;
}

/** The public credential page, in the issuer's branding when given; every value from the database is escaped. */
export function credentialPageHtml(credential: PublicCredential, branding?: CredentialBranding): string {
  const e = escapeHtml;
  const title = `${credential.status === 'test' ? 'TEST – ' : ''}${credential.recipient_name} – ${credential.program_title}`;
  const description = `Certificate issued by ${credential.issuer_name} on ${credential.issue_date_text}. Status: ${credential.status}.`;
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
    ['Issued by', `${credential.issuer_name}${credential.issuer_name === credential.organization_name ? '' : `, for ${credential.organization_name}`} (${credential.issuer_verified ? 'verified issuer' : 'name not verified'}) · ${credential.issuer_identity}`],
    ['Issue date', credential.issue_date_text],
    [credential.status === 'expired' ? 'Expired on' : 'Expires on', credential.expires_on_text ?? 'Does not expire'],
    ...(credential.status === 'revoked' && credential.revoked_on_text ? [['Revoked on', credential.revoked_on_text] as [string, string]] : []),
    ['Certificate number', credential.certificate_number],
    ['Verification code', credential.verification_code],
  ];
  // Same-origin paths: the page works at whatever address serves it, and the CSP allows images from there only.
  const path = `/credentials/${encodeURIComponent(credential.verification_code)}`;
  // Beside the title, the badge the verifiable credential names as its achievement's image.
  const body = `<div class="heading"><div><h1>${e(credential.program_title)}</h1>
<p>${e(credential.recipient_name)}</p></div>
<img class="badge" src="${e(`${path}/badge.png`)}" alt="${e(`Badge of ${credential.program_title}`)}" width="96" height="96"></div>
<p class="status ${credential.status}" role="status" data-status="${credential.status}">${e(statusSentence(credential))}</p>
<p class="issuer" data-issuer-verified="${credential.issuer_verified}">${e(issuerSentence(credential))}</p>
<p class="issuer-identity" data-issuer-domain="${e(credential.issuer_domain ?? '')}">${e(identitySentence(credential))}</p>
${shareActions(credential)}
<dl>
${rows.map(([label, value]) => `<dt>${e(label)}</dt><dd>${e(value)}</dd>`).join('\n')}
</dl>
<img class="preview" src="${e(`${path}/document.png`)}" alt="${e(`Certificate for ${credential.recipient_name}`)}">
<p><a class="download" href="${e(`${path}/document.pdf`)}" download>Download the certificate (PDF)</a>
${credential.status === 'test' ? '</p>\n<p class="hint">A test certificate has no verifiable credential.</p>' : verifiableCredentialLinks(e(`${path}/credential.json`))}`;
  const branded = branding && { style: brandingStyle(branding), top: brandingHeaderHtml(branding, credential.organization_name, path) + statusBandHtml(credential.status) };
  return page(title, head, body, branded);
}

/** The verifiable credential's download (none for a test certificate: the platform signs no test credential). */
function verifiableCredentialLinks(href: string): string {
  return `<a class="download secondary" id="credential-download" href="${href}" download>Download the verifiable credential (Open Badges 3.0)</a></p>
<p class="hint">The verifiable credential is signed with the issuer’s key, which the platform publishes; anyone can check it, offline or at <a href="/credentials/verify">the verifier</a>.</p>`;
}

export function notFoundPageHtml(): string {
  return page(
    'Certificate not found',
    '',
    `<h1>Certificate not found</h1>\n<p>No certificate has this verification code. Check the code or the link you were given.</p>\n${verifyCodeBox()}`,
  );
}
