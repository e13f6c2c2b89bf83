/**
 * Acting on several certificates at once, one request per certificate through the APIs the rows use: revoke, resend
 * the recipient's mail, and fetch each PDF (waiting while the service is still drawing it: 202 + Retry-After) into one
 * ZIP built in the browser with fflate.
 */
import { zipSync } from 'fflate';
import { send } from '../../api/http';
import type { Certificate } from '../../api/types';
import { resendCertificateMail, revokeCertificate } from './certificates-api';

/** A document still being drawn (202) is asked again after its `Retry-After`, waiting at most this long, at most this many times. */
export const DOCUMENT_MAX_WAIT_MS = 5000;
export const DOCUMENT_RETRIES = 30;

export interface BulkOutcome {
  succeeded: Certificate[];
  failed: { certificate: Certificate; error: unknown }[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `act` for each certificate in turn (one at a time: the rate limits are the account's), collecting what failed. */
export async function forEachCertificate(certificates: readonly Certificate[], act: (certificate: Certificate) => Promise<unknown>): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { succeeded: [], failed: [] };
  for (const certificate of certificates) {
    try {
      await act(certificate);
      outcome.succeeded.push(certificate);
    } catch (error) {
      outcome.failed.push({ certificate, error });
    }
  }
  return outcome;
}

/** Not revoked yet: what "Revoke selected" revokes. */
export const revocable = (certificates: readonly Certificate[]) => certificates.filter((certificate) => certificate.status !== 'revoked');
/** With a recipient email and not revoked: what "Resend mail" mails again (as the row's own button). */
export const mailable = (certificates: readonly Certificate[]) => certificates.filter((certificate) => certificate.recipient_email && certificate.status !== 'revoked');

export const revokeAll = (certificates: readonly Certificate[]) => forEachCertificate(revocable(certificates), (certificate) => revokeCertificate(certificate.id));
export const resendAll = (certificates: readonly Certificate[]) => forEachCertificate(mailable(certificates), (certificate) => resendCertificateMail(certificate.id));

/** A certificate's PDF through the dashboard API the row's PDF button uses; a 202 (still drawing) is asked again after its Retry-After. */
export async function fetchPdf(certificate: Certificate): Promise<Uint8Array> {
  for (let attempt = 0; ; attempt++) {
    const response = await send('certificate', `/certificates/${encodeURIComponent(certificate.id)}/document`, { query: { format: 'pdf' } });
    if (response.status !== 202) return new Uint8Array(await response.arrayBuffer());
    if (attempt >= DOCUMENT_RETRIES) throw new Error('the PDF is still being drawn; try again later');
    await pause(Math.min(Math.max(1, Number(response.headers.get('retry-after')) || 1) * 1000, DOCUMENT_MAX_WAIT_MS));
  }
}

/** `certificates-2026-11-29.zip` (the viewer's date). */
export function zipFileName(now = new Date()): string {
  return `certificates-${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}.zip`;
}

/** Fetches each PDF and saves those fetched as one ZIP (`<certificate number>.pdf` each); nothing is saved when none could be. */
export async function downloadZip(certificates: readonly Certificate[]): Promise<BulkOutcome & { fileName: string }> {
  const files: Record<string, Uint8Array> = {};
  const outcome = await forEachCertificate(certificates, async (certificate) => {
    const bytes = await fetchPdf(certificate);
    const base = certificate.certificate_number || certificate.id;
    files[files[`${base}.pdf`] ? `${base}-${certificate.id}.pdf` : `${base}.pdf`] = bytes;
  });
  const fileName = zipFileName();
  if (outcome.succeeded.length > 0) {
    // Stored, not deflated: PDFs are compressed already.
    const zip = zipSync(files, { level: 0 });
    const url = URL.createObjectURL(new Blob([zip], { type: 'application/zip' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  return { ...outcome, fileName };
}
