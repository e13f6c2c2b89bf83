import type { Knex } from 'knex';

/**
 * Recipients: a certificate may name its recipient's email address (`recipient_email`), which the recipient's mail is
 * sent to. The credential never holds the address, only its salted SHA-256 (`recipient_identity_hash`, with the
 * certificate's own random `recipient_identity_salt`), computed at issue. The delivery of the recipient mail is kept
 * on the certificate: `pending` from the issuing transaction (or a resend) until the SMTP server took it (`sent`,
 * `delivery_sent_at`) or refused it (`bounced`: a 5xx answer; `failed`: anything else), with its message. A certificate
 * without an email has no delivery (all null). Pending rows double as the outbox: a process that stopped before
 * sending leaves them for the server's sweep (`delivery_updated_at`).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('certificates', (t) => {
    t.text('recipient_email');
    t.text('recipient_identity_salt');
    t.text('recipient_identity_hash');
    t.text('delivery_status');
    t.text('delivery_last_error');
    t.timestamp('delivery_sent_at', { useTz: true });
    t.timestamp('delivery_updated_at', { useTz: true });
  });
  await db.raw("alter table certificates add constraint certificates_delivery_status check (delivery_status in ('pending', 'sent', 'failed', 'bounced'))");
  await db.raw('alter table certificates add constraint certificates_delivery_needs_email check (delivery_status is null or recipient_email is not null)');
  await db.raw("create index certificates_pending_deliveries on certificates (delivery_updated_at) where delivery_status = 'pending'");
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index certificates_pending_deliveries');
  await db.raw('alter table certificates drop constraint certificates_delivery_needs_email');
  await db.raw('alter table certificates drop constraint certificates_delivery_status');
  await db.schema.alterTable('certificates', (t) => {
    t.dropColumns('recipient_email', 'recipient_identity_salt', 'recipient_identity_hash', 'delivery_status', 'delivery_last_error', 'delivery_sent_at', 'delivery_updated_at');
  });
}
