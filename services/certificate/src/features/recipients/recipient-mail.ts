import { escapeHtml } from '@platform/service-kit/html';
import { formatVerificationCode, type CertificateRow } from '../certificates';
import { linkedInAddToProfileUrl } from '../credentials';
import { credentialPageUrl, qrCodePng } from '../documents';
import type { MailMessage } from '../mail';

/** The links a recipient mail gives; `linkedIn` and `wallet` only for a live certificate. */
export interface RecipientLinks {
  page: string;
  pdf: string;
  /** LinkedIn's add-to-profile form, pre-filled (a test certificate is not offered for a profile). */
  linkedIn: string | null;
  /** The signed Open Badges credential (`credential.json`) to import into a wallet; a test certificate has none. */
  wallet: string | null;
}

export function recipientLinks(row: CertificateRow, organizationName: string, publicBaseUrl: string): RecipientLinks {
  const page = credentialPageUrl(publicBaseUrl, row.verification_code);
  return {
    page,
    pdf: `${page}/document.pdf`,
    linkedIn: row.livemode
      ? linkedInAddToProfileUrl({
          programTitle: row.program_title,
          organizationName,
          issueDate: row.issue_date,
          expiresOn: row.expires_on,
          pageUrl: page,
          credentialId: formatVerificationCode(row.verification_code),
        })
      : null,
    wallet: row.livemode ? `${page}/credential.json` : null,
  };
}

const QR_CID = 'credential-qr@partner-platform';

/**
 * The mail telling a recipient about their certificate, as text and HTML: the credential page (and a QR code of it),
 * the PDF, LinkedIn's add-to-profile form and the credential to import into a wallet. A test certificate's mail says
 * TEST in its subject and first line, and has neither LinkedIn nor wallet link.
 */
export async function recipientMail(row: CertificateRow, organizationName: string, publicBaseUrl: string): Promise<MailMessage> {
  const links = recipientLinks(row, organizationName, publicBaseUrl);
  const test = !row.livemode;
  const subject = `${test ? '[TEST] ' : ''}Your certificate: ${row.program_title}, from ${organizationName}`;
  const greeting = `Hello ${row.recipient_name},`;
  const intro = `${organizationName} issued you a certificate for ${row.program_title}, dated ${row.issue_date}.`;
  const testNote = 'TEST: this certificate was issued in test mode. It is not a real credential and proves nothing.';
  const code = formatVerificationCode(row.verification_code);
  const lines = [
    ...(test ? [testNote, ''] : []),
    greeting,
    '',
    intro,
    '',
    `View and share it (anyone can check it with the code ${code}):`,
    links.page,
    '',
    'Download it as a PDF:',
    links.pdf,
    ...(links.linkedIn ? ['', 'Add it to your LinkedIn profile:', links.linkedIn] : []),
    ...(links.wallet ? ['', 'Import it into your digital wallet (an Open Badges 3.0 credential):', links.wallet] : []),
    '',
    'You get this mail because the issuer gave this address when issuing the certificate.',
    '',
  ];
  const e = escapeHtml;
  const link = (href: string, label: string) => `<p style="margin:0 0 12px"><a href="${e(href)}" style="color:#1d4ed8">${e(label)}</a></p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#111827;background:#ffffff;margin:0;padding:24px">
<main style="max-width:560px;margin:0 auto">
${test ? `<p style="background:#fef3c7;color:#78350f;padding:8px 12px;border-radius:4px;font-weight:bold">${e(testNote)}</p>` : ''}
<h1 style="font-size:20px;margin:0 0 16px">${e(row.program_title)}</h1>
<p style="margin:0 0 8px">${e(greeting)}</p>
<p style="margin:0 0 16px">${e(intro)}</p>
${link(links.page, 'View and share your certificate')}
${link(links.pdf, 'Download it as a PDF')}
${links.linkedIn ? link(links.linkedIn, 'Add it to your LinkedIn profile') : ''}
${links.wallet ? link(links.wallet, 'Import it into your digital wallet (Open Badges 3.0)') : ''}
<p style="margin:16px 0 4px">Scan to open the certificate page:</p>
<p style="margin:0 0 16px"><img src="cid:${QR_CID}" width="160" height="160" alt="QR code of ${e(links.page)}"></p>
<p style="margin:0 0 16px">Verification code: <strong>${e(code)}</strong></p>
<p style="font-size:13px;color:#4b5563;margin:0">You get this mail because the issuer gave this address when issuing the certificate.</p>
</main>
</body></html>
`;
  const qr = await qrCodePng(links.page, 320);
  return { to: row.recipient_email!, subject, text: lines.join('\n'), html, inlineImages: [{ cid: QR_CID, filename: 'certificate-qr.png', contentType: 'image/png', content: qr }] };
}
