import type { Knex } from '@platform/service-kit/db';
import type { TemplateDefinition } from '../templates';

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
  /** The issuing organization's name, printed on every document. */
  organization_name: string;
  /** false for a test certificate, whose document carries a TEST band. */
  livemode: boolean;
  /** The domain the organization proved (null: its identity is not verified); the document says which. */
  issuer_domain: string | null;
}

export interface TemplateVersionForDocument {
  definition: TemplateDefinition;
  background_image: Buffer | null;
  logo: Buffer | null;
  signature_image: Buffer | null;
}

export type DocumentFormat = 'pdf' | 'png';
/** The band a document carries: none (`valid`), REVOKED, EXPIRED, or TEST (a test certificate, whatever its state). */
export type DocumentStatus = 'valid' | 'revoked' | 'expired' | 'test';

/** One stored document: a certificate drawn from one template version, for one status, in one format. */
export interface DocumentKey {
  certificateId: string;
  templateVersion: number;
  status: DocumentStatus;
  format: DocumentFormat;
}

const CERTIFICATE_COLUMNS = [
  'c.id', 'c.organization_id', 'c.status', 'c.expires_on', 'c.verification_code', 'c.certificate_number', 'c.recipient_name', 'c.program_title', 'c.issue_date',
  'c.template_id', 'c.template_version', 'c.custom_fields', 'o.name as organization_name', 'c.livemode', 'o.issuer_domain',
];

function columnsOf(key: DocumentKey) {
  return { certificate_id: key.certificateId, template_version: key.templateVersion, status: key.status, format: key.format };
}

export function createDocumentsRepository(db: Knex) {
  const certificates = () => db('certificates as c').join('organizations as o', 'o.id', 'c.organization_id');
  return {
    async certificateInOrganization(organizationId: string, id: string, livemode: boolean): Promise<CertificateForDocument | undefined> {
      return certificates().where({ 'c.organization_id': organizationId, 'c.id': id, 'c.livemode': livemode }).first(CERTIFICATE_COLUMNS);
    },
    async certificateByVerificationCode(code: string): Promise<CertificateForDocument | undefined> {
      return certificates().where({ 'c.verification_code': code }).first(CERTIFICATE_COLUMNS);
    },
    async templateVersion(templateId: string, version: number): Promise<TemplateVersionForDocument | undefined> {
      return db('template_versions').where({ template_id: templateId, version }).first('definition', 'background_image', 'logo', 'signature_image');
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

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>;
