import { request, send } from '../../api/http';
import type { Certificate, NewCertificate, Page } from '../../api/types';

export const PAGE_SIZE = 20;

export const listCertificates = (cursor?: string) => request<Page<Certificate>>('certificate', '/certificates', { query: { limit: PAGE_SIZE, cursor } });
export const issueCertificate = (body: NewCertificate) => request<Certificate>('certificate', '/certificates', { method: 'POST', body });
export const uploadCertificateCsv = (csv: string) =>
  request<Page<Certificate>>('certificate', '/certificates/batch', { method: 'POST', body: csv, contentType: 'text/csv' });
export const revokeCertificate = (id: string) => request<Certificate>('certificate', `/certificates/${encodeURIComponent(id)}/revoke`, { method: 'POST' });
/** Mails the recipient again; the answer shows how that attempt went (`delivery`). */
export const resendCertificateMail = (id: string) => request<Certificate>('certificate', `/certificates/${encodeURIComponent(id)}/resend`, { method: 'POST' });

/** The public page of a certificate, served by the gateway without a key. */
export const publicPageUrl = (certificate: Certificate) => `/credentials/${encodeURIComponent(certificate.verification_code)}`;

/** Fetches the document with the access token and hands it to the browser as a download. */
export async function downloadDocument(certificate: Certificate, format: 'pdf' | 'png'): Promise<void> {
  const response = await send('certificate', `/certificates/${encodeURIComponent(certificate.id)}/document`, { query: { format } });
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `${certificate.certificate_number || certificate.id}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
