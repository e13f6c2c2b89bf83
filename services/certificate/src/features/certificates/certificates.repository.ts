import type { Knex } from '@platform/service-kit/db';

export interface CertificateRow {
  id: string;
  organization_id: string;
  verification_code: string;
  certificate_number: string;
  recipient_name: string;
  program_title: string;
  issue_date: string;
  expires_on: string | null;
  status: 'valid' | 'revoked';
  created_at: Date;
  updated_at: Date;
  revoked_at: Date | null;
  template_id: string | null;
  template_version: number | null;
  custom_fields: Record<string, string>;
  /** false for a test certificate (issued in test mode: no credit spent, never verified as valid). */
  livemode: boolean;
}

const COLUMNS = [
  'id', 'organization_id', 'verification_code', 'certificate_number', 'recipient_name', 'program_title',
  'issue_date', 'expires_on', 'status', 'created_at', 'updated_at', 'revoked_at', 'template_id', 'template_version', 'custom_fields', 'livemode',
];

/** A certificate as issued: stored `valid`, its times filled by the table. */
export type NewCertificateRow = Omit<CertificateRow, 'status' | 'created_at' | 'updated_at' | 'revoked_at'>;

/** The certificates table. Every read and change names the mode: a live certificate is not found in test mode, and the reverse. */
export interface CertificatesRepository {
  /** Inserts the batch inside the caller's transaction; a taken certificate_number fails it (unique violation 23505). */
  insertMany(trx: Knex.Transaction, rows: NewCertificateRow[]): Promise<CertificateRow[]>;
  find(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined>;
  /** Newest first (created_at, then id, both descending); `after` is the id of the previous page's last row. */
  list(organizationId: string, livemode: boolean, limit: number, after?: string): Promise<CertificateRow[]>;
  /** Marks the certificate revoked; `revoked_at` is the first revocation's time. Undefined when it is not the organization's in that mode. */
  revoke(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined>;
}

export function createCertificatesRepository(db: Knex): CertificatesRepository {
  return {
    async insertMany(trx: Knex.Transaction, rows: NewCertificateRow[]): Promise<CertificateRow[]> {
      return trx('certificates')
        .insert(rows.map((row) => ({ ...row, custom_fields: JSON.stringify(row.custom_fields) })))
        .returning(COLUMNS);
    },
    async find(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined> {
      return db('certificates').where({ organization_id: organizationId, livemode, id }).first(COLUMNS);
    },
    /** Newest first (created_at, then id, both descending); `after` is the id of the previous page's last row. */
    async list(organizationId: string, livemode: boolean, limit: number, after?: string): Promise<CertificateRow[]> {
      const query = db('certificates')
        .where({ organization_id: organizationId, livemode })
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(limit)
        .select(COLUMNS);
      if (after) {
        const cursor = db('certificates').where({ organization_id: organizationId, id: after }).select('created_at', 'id');
        query.andWhereRaw('(created_at, id) < (?)', [cursor]);
      }
      return query;
    },
    async revoke(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined> {
      const [row] = await db('certificates')
        .where({ organization_id: organizationId, livemode, id })
        .update({ status: 'revoked', revoked_at: db.raw('coalesce(revoked_at, now())'), updated_at: db.fn.now() })
        .returning(COLUMNS);
      return row;
    },
  };
}
