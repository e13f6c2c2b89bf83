import { NotFoundError } from '@platform/service-kit/errors';
import { verifiedStatus } from '../certificates';
import { formatVerificationCode, normalizeVerificationCode } from '../certificates';
import { credentialPageUrl, humanDate, issuerNameOf, type DocumentsService } from '../documents';
import { badgePng } from './badge-image';
import { issuerIdentityMark } from '../../platform/issuer-identity-mark';
import type { CredentialBrandingRepository } from './credential-branding';
import type { CredentialsRepository } from './credentials.repository';

export type PublicCredential = Awaited<ReturnType<ReturnType<typeof createCredentialsService>['find']>>;

/** The public credential: anyone with the verification code may read it, so it holds only what the certificate shows. */
export function createCredentialsService(repository: CredentialsRepository, documents: DocumentsService, { publicBaseUrl, documentWaitMs }: { publicBaseUrl: string; documentWaitMs: number }, branding: CredentialBrandingRepository) {
  /** A code that cannot be one of ours is not found without a database lookup. */
  function storedCode(input: string): string {
    const code = normalizeVerificationCode(input);
    if (!code) throw new NotFoundError('Certificate not found');
    return code;
  }

  return {
    async find(input: string) {
      const row = await repository.byVerificationCode(storedCode(input));
      if (!row) throw new NotFoundError('Certificate not found');
      const status = verifiedStatus(row.status, row.expires_on, row.livemode);
      const pageUrl = credentialPageUrl(publicBaseUrl, row.verification_code);
      return {
        verification_code: formatVerificationCode(row.verification_code),
        status,
        valid: status === 'valid',
        recipient_name: row.recipient_name,
        program_title: row.program_title,
        organization_name: row.organization_name,
        issuer_name: issuerNameOf(row.template_issuer_name, row.organization_name),
        issuer_verified: row.name_verified_at !== null,
        issuer_domain: row.issuer_domain,
        issuer_identity: issuerIdentityMark(row.issuer_domain),
        issue_date: row.issue_date,
        issue_date_text: humanDate(row.issue_date, row.date_format ?? undefined),
        expires_on: row.expires_on,
        expires_on_text: row.expires_on ? humanDate(row.expires_on, row.date_format ?? undefined) : null,
        certificate_number: row.certificate_number,
        revoked_at: row.revoked_at?.toISOString() ?? null,
        revoked_on_text: row.revoked_at ? humanDate(row.revoked_at.toISOString().slice(0, 10), row.date_format ?? undefined) : null,
        page_url: pageUrl,
        document: { pdf_url: `${pageUrl}/document.pdf`, png_url: `${pageUrl}/document.png` },
      };
    },
    /** The colours and logo of the template the certificate was issued with, for its page. */
    async branding(input: string) {
      return branding.branding(storedCode(input));
    },
    /** The logo of that template version, shown on the page from the page's own origin. */
    async logo(input: string) {
      const logo = await branding.logo(storedCode(input));
      if (!logo) throw new NotFoundError('Logo not found');
      return logo;
    },
    /**
     * The credential's badge (its Open Badges `achievement.image`): a PNG drawn in the template's accent colour around
     * the template's logo, or around the programme's initials when the template has none.
     */
    async badge(input: string): Promise<Buffer> {
      const code = storedCode(input);
      const row = await repository.byVerificationCode(code);
      if (!row) throw new NotFoundError('Certificate not found');
      const [{ colors }, logo] = await Promise.all([branding.branding(code), branding.logo(code)]);
      return badgePng({ programTitle: row.program_title, accent: colors.accent, logo: logo?.content ?? null });
    },
    /** The document, or (not rendered yet within `documentWaitMs`) when to ask again. */
    async document(input: string, format: 'pdf' | 'png') {
      return documents.forVerificationCode(storedCode(input), format, documentWaitMs);
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
