import type { Knex } from 'knex';

/**
 * `webhook_deliveries.claim_token`: which claim holds the delivery's current attempt. A claim sets a new token with its
 * lease; renewing the lease, giving the attempt back and moving the delivery on after a failed attempt all require the
 * token, so a holder whose lease ran out (frozen, starved) can neither extend nor end the claim of the job that took over.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.text('claim_token').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('claim_token');
  });
}
