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
  /** The recipient's address, when the issuer gave one: their mail goes there (see `delivery_status`). */
  recipient_email: string | null;
  /** The recipient mail's delivery; null exactly when there is no `recipient_email`. */
  delivery_status: DeliveryStatus | null;
  /** The SMTP server's answer (or why it could not be reached) of the last failed attempt; null once one is sent. */
  delivery_last_error: string | null;
  delivery_sent_at: Date | null;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'bounced';

/** A delivery's outcome: the SMTP server took the mail, or refused it (5xx: `bounced`) or could not be handed it (`failed`). */
export type DeliveryOutcome = { status: 'sent' } | { status: 'failed' | 'bounced'; error: string };

const COLUMNS = [
  'id', 'organization_id', 'verification_code', 'certificate_number', 'recipient_name', 'program_title',
  'issue_date', 'expires_on', 'status', 'created_at', 'updated_at', 'revoked_at', 'template_id', 'template_version', 'custom_fields', 'livemode',
  'recipient_email', 'delivery_status', 'delivery_last_error', 'delivery_sent_at',
];

/**
 * A certificate as issued: stored `valid`, its times filled by the table; with a `recipient_email`, its salted hash for
 * the credential and a `pending` delivery.
 */
export type NewCertificateRow = Omit<CertificateRow, 'status' | 'created_at' | 'updated_at' | 'revoked_at' | 'delivery_last_error' | 'delivery_sent_at'> & {
  recipient_identity_salt: string | null;
  recipient_identity_hash: string | null;
};

/** The certificates table. Every read and change names the mode: a live certificate is not found in test mode, and the reverse. */
export interface CertificatesRepository {
  /** Inserts the batch inside the caller's transaction; a taken certificate_number fails it (unique violation 23505). */
  insertMany(trx: Knex.Transaction, rows: NewCertificateRow[]): Promise<CertificateRow[]>;
  find(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined>;
  /** Newest first (created_at, then id, both descending); `after` is the id of the previous page's last row. */
  list(organizationId: string, livemode: boolean, limit: number, after?: string): Promise<CertificateRow[]>;
  /** Marks the certificate revoked; `revoked_at` is the first revocation's time. Undefined when it is not the organization's in that mode. */
  revoke(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined>;
  /** Marks the recipient mail `pending` again (a resend); undefined when it is not the organization's in that mode. */
  markPending(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined>;
  /** Records how a delivery attempt ended. */
  recordDelivery(id: string, outcome: DeliveryOutcome): Promise<CertificateRow | undefined>;
  /**
   * Claims up to `limit` deliveries left `pending` for `staleSeconds` (a process stopped before sending them): their
   * clock restarts, so another replica's sweep does not take them too.
   */
  claimStalePending(staleSeconds: number, limit: number): Promise<CertificateRow[]>;
}

export function createCertificatesRepository(db: Knex): CertificatesRepository {
  return {
    async insertMany(trx: Knex.Transaction, rows: NewCertificateRow[]): Promise<CertificateRow[]> {
      return trx('certificates')
        .insert(rows.map((row) => ({ ...row, custom_fields: JSON.stringify(row.custom_fields), delivery_updated_at: row.delivery_status ? trx.fn.now() : null })))
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
    async markPending(organizationId: string, id: string, livemode: boolean): Promise<CertificateRow | undefined> {
      const [row] = await db('certificates')
        .where({ organization_id: organizationId, livemode, id })
        .update({ delivery_status: db.raw("case when recipient_email is null then null else 'pending' end"), delivery_updated_at: db.fn.now() })
        .returning(COLUMNS);
      return row;
    },
    async recordDelivery(id: string, outcome: DeliveryOutcome): Promise<CertificateRow | undefined> {
      const [row] = await db('certificates')
        .where({ id })
        .whereNotNull('recipient_email')
        .update(
          outcome.status === 'sent'
            ? { delivery_status: 'sent', delivery_last_error: null, delivery_sent_at: db.fn.now(), delivery_updated_at: db.fn.now() }
            : { delivery_status: outcome.status, delivery_last_error: outcome.error.slice(0, 1000), delivery_updated_at: db.fn.now() },
        )
        .returning(COLUMNS);
      return row;
    },
    async claimStalePending(staleSeconds: number, limit: number): Promise<CertificateRow[]> {
      const stale = db('certificates')
        .where('delivery_status', 'pending')
        .andWhere('delivery_updated_at', '<', db.raw('now() - make_interval(secs => ?)', [staleSeconds]))
        .orderBy('delivery_updated_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .select('id');
      return db('certificates').whereIn('id', stale).update({ delivery_updated_at: db.fn.now() }).returning(COLUMNS);
    },
  };
}
