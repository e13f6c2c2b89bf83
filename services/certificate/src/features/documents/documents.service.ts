import { NotFoundError } from '@platform/service-kit';
import { formatVerificationCode } from '../certificates/verification-code';
import { BUILT_IN_TEMPLATE } from './built-in-template';
import { renderPdf, renderPng } from './document-renderers';
import type { CertificateForDocument, DocumentFormat, DocumentsRepository } from './documents.repository';

export const DOCUMENT_CONTENT_TYPES: Record<DocumentFormat, string> = { pdf: 'application/pdf', png: 'image/png' };

/** The public page of a certificate, which its QR code and `{{verification_url}}` point at. */
export function credentialPageUrl(publicBaseUrl: string, verificationCode: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/credentials/${formatVerificationCode(verificationCode)}`;
}

/**
 * Renders a certificate from the template version it was issued with (the built-in layout, version 0, without one).
 * A document depends only on the certificate and that version, so the first render is stored and served from then on.
 */
export function documentsService(repository: DocumentsRepository, publicBaseUrl: string) {
  async function render(certificate: CertificateForDocument, format: DocumentFormat): Promise<Buffer> {
    const version = certificate.template_version ?? 0;
    const cached = await repository.cached(certificate.id, version, format);
    if (cached) return cached;
    const template = certificate.template_id ? await repository.templateVersion(certificate.template_id, version) : undefined;
    const verificationUrl = credentialPageUrl(publicBaseUrl, certificate.verification_code);
    const input = {
      definition: template?.definition ?? BUILT_IN_TEMPLATE,
      backgroundImage: template?.background_image ?? null,
      logo: template?.logo ?? null,
      verificationUrl,
      title: `${certificate.program_title}: ${certificate.recipient_name}`,
      values: {
        ...certificate.custom_fields,
        recipient_name: certificate.recipient_name,
        program_title: certificate.program_title,
        issue_date: certificate.issue_date,
        certificate_number: certificate.certificate_number,
        verification_url: verificationUrl,
      },
    };
    const content = format === 'pdf' ? await renderPdf(input) : await renderPng(input);
    await repository.store(certificate.id, version, format, content);
    return content;
  }

  return {
    async forCertificate(organizationId: string, id: string, format: DocumentFormat): Promise<Buffer> {
      const certificate = await repository.certificateInOrganization(organizationId, id);
      if (!certificate) throw new NotFoundError('Certificate not found');
      return render(certificate, format);
    },
    /** `code` is the stored form (see `normalizeVerificationCode`). */
    async forVerificationCode(code: string, format: DocumentFormat): Promise<Buffer> {
      const certificate = await repository.certificateByVerificationCode(code);
      if (!certificate) throw new NotFoundError('Certificate not found');
      return render(certificate, format);
    },
  };
}

export type DocumentsService = ReturnType<typeof documentsService>;
