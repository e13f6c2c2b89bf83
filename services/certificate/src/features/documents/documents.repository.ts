import type { Knex } from '@platform/service-kit';
import type { TemplateDefinition } from '../templates/templates.schema';

/** What a document shows of a certificate, read by this feature itself (the certificates feature's rows stay its own). */
export interface CertificateForDocument {
  id: string;
  organization_id: string;
  /** As stored: `valid` or `revoked` (`expired` is read off `expires_on`). */
  status: string;
  expires_on: string | null;
  verification_code: string;
  certificate_number: string;
  recipient_name: string;
  program_title: string;
  issue_date: string;
  template_id: string | null;
  template_version: number | null;
  custom_fields: Record<string, string>;
}

export interface TemplateVersionForDocument {
  definition: TemplateDefinition;
  background_image: Buffer | null;
  logo: Buffer | null;
}

export type DocumentFormat = 'pdf' | 'png';
export type DocumentStatus = 'valid' | 'revoked' | 'expired';

/** One stored document: a certificate drawn from one template version, for one status, in one format. */
export interface DocumentKey {
  certificateId: string;
  templateVersion: number;
  status: DocumentStatus;
  format: DocumentFormat;
}

const CERTIFICATE_COLUMNS = [
  'id', 'organization_id', 'status', 'expires_on', 'verification_code', 'certificate_number', 'recipient_name', 'program_title', 'issue_date', 'template_id', 'template_version', 'custom_fields',
];

function columnsOf(key: DocumentKey) {
  return { certificate_id: key.certificateId, template_version: key.templateVersion, status: key.status, format: key.format };
}

export function documentsRepository(db: Knex) {
  return {
    async certificateInOrganization(organizationId: string, id: string): Promise<CertificateForDocument | undefined> {
      return db('certificates').where({ organization_id: organizationId, id }).first(CERTIFICATE_COLUMNS);
    },
    async certificateByVerificationCode(code: string): Promise<CertificateForDocument | undefined> {
      return db('certificates').where({ verification_code: code }).first(CERTIFICATE_COLUMNS);
    },
    async templateVersion(templateId: string, version: number): Promise<TemplateVersionForDocument | undefined> {
      return db('template_versions').where({ template_id: templateId, version }).first('definition', 'background_image', 'logo');
    },
    async cached(key: DocumentKey): Promise<Buffer | undefined> {
      const row = await db('certificate_documents').where(columnsOf(key)).first('content');
      return row?.content;
    },
    /** Two renders racing for the same document both succeed; the first one stored is the one kept. */
    async store(key: DocumentKey, content: Buffer): Promise<void> {
      await db('certificate_documents').insert({ ...columnsOf(key), content }).onConflict().ignore();
    },
  };
}

export type DocumentsRepository = ReturnType<typeof documentsRepository>;
