import type { Knex } from '@platform/service-kit/db';
import type { DateFormat } from '../templates';

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
  created_at: Date;
  /** Where the certificate's revocation bit is in the status lists (assigned at issue). */
  status_list_position: number;
  /** false for a test certificate: it verifies as `test` and has no verifiable credential. */
  livemode: boolean;
  /** The recipient's email as the credential names it: salted SHA-256 and salt (never the address); null without one. */
  recipient_identity_hash: string | null;
  recipient_identity_salt: string | null;
  organization_id: string;
  /** The domain the organization proved (its issuer `url`); null: its identity is not verified. */
  issuer_domain: string | null;
  /** Whether the certificate's template version has a logo: the issuer's `image` in its credential. */
  has_logo: boolean;
  /** The issuer name of the certificate's template version (null: none, or no template): the document names it. */
  template_issuer_name: string | null;
  /** The date format of the certificate's template version (null: the built-in template's, `long`). */
  date_format: DateFormat | null;
}

export function createCredentialsRepository(db: Knex) {
  return {
    /** `code` is the stored form of a verification code; it is unique across organizations. */
    async byVerificationCode(code: string): Promise<PublicCredentialRow | undefined> {
      const row = await db('certificates as c')
        .join('organizations as o', 'o.id', 'c.organization_id')
        .leftJoin('template_versions as v', (on) => on.on('v.template_id', 'c.template_id').andOn('v.version', 'c.template_version'))
        .where('c.verification_code', code)
        .first(
          'c.verification_code', 'c.recipient_name', 'c.program_title', 'o.name as organization_name', 'o.name_verified_at', 'c.issue_date', 'c.expires_on',
          'c.certificate_number', 'c.status', 'c.revoked_at', 'c.created_at', 'c.status_list_position', 'c.livemode',
          'c.recipient_identity_hash', 'c.recipient_identity_salt',
          'c.organization_id', 'o.issuer_domain', db.raw('(v.logo_meta is not null) as has_logo'),
          db.raw("v.definition->>'issuer_name' as template_issuer_name"), db.raw("v.definition->>'date_format' as date_format"),
        );
      return row ? { ...row, status_list_position: Number(row.status_list_position), has_logo: row.has_logo === true } : undefined;
    },
    /** The revoked positions in [from, to): the set bits of one status list. */
    async revokedPositions(from: number, to: number): Promise<number[]> {
      const rows: Array<{ status_list_position: string }> = await db('certificates')
        .where('status', 'revoked')
        .andWhere('status_list_position', '>=', from)
        .andWhere('status_list_position', '<', to)
        .select('status_list_position');
      return rows.map((row) => Number(row.status_list_position));
    },
    /** Whether any certificate has a position in [from, to): a status list that holds nobody does not exist. */
    async anyPositionIn(from: number, to: number): Promise<boolean> {
      const row = await db('certificates').where('status_list_position', '>=', from).andWhere('status_list_position', '<', to).first(db.raw('1 as found'));
      return row !== undefined;
    },
    async isRevokedAt(position: number): Promise<boolean> {
      const row = await db('certificates').where({ status_list_position: position, status: 'revoked' }).first(db.raw('1 as found'));
      return row !== undefined;
    },
  };
}

export type CredentialsRepository = ReturnType<typeof createCredentialsRepository>;
