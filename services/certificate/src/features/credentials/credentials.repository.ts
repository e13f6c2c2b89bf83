import type { Knex } from '@platform/service-kit';

/** What the public page may show of a certificate: nothing that identifies records inside the service. */
export interface PublicCredentialRow {
  verification_code: string;
  recipient_name: string;
  program_title: string;
  organization_name: string;
  /** When an operator confirmed the organization's name (`cli organizations verify`); null: only the issuer says so. */
  name_verified_at: Date | null;
  issue_date: string;
  expires_on: string | null;
  certificate_number: string;
  status: string;
  revoked_at: Date | null;
}

export function credentialsRepository(db: Knex) {
  return {
    /** `code` is the stored form of a verification code; it is unique across organizations. */
    async byVerificationCode(code: string): Promise<PublicCredentialRow | undefined> {
      return db('certificates as c')
        .join('organizations as o', 'o.id', 'c.organization_id')
        .where('c.verification_code', code)
        .first(
          'c.verification_code', 'c.recipient_name', 'c.program_title', 'o.name as organization_name', 'o.name_verified_at', 'c.issue_date', 'c.expires_on',
          'c.certificate_number', 'c.status', 'c.revoked_at',
        );
    },
  };
}

export type CredentialsRepository = ReturnType<typeof credentialsRepository>;
