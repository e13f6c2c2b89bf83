import type { Knex } from '@platform/service-kit';

/** What dispatch reads of a partner's endpoint to fan an event out. */
export interface WebhookTarget {
  id: string;
  partner_id: string;
  events: string[];
}

/** Enabled endpoints of these partners; FOR SHARE so an endpoint is not deleted under the relay's feet. */
export async function enabledEndpointsOf(trx: Knex.Transaction, partnerIds: string[]): Promise<WebhookTarget[]> {
  return trx('webhook_endpoints').select('id', 'partner_id', 'events').whereIn('partner_id', partnerIds).where({ status: 'enabled' }).forShare();
}

/** An endpoint that answers 410 Gone stops receiving: the partner registers it again to resume. */
export async function disableEndpoint(db: Knex, id: string, reason: string): Promise<void> {
  await db('webhook_endpoints').where({ id, status: 'enabled' }).update({ status: 'disabled', disabled_reason: reason, updated_at: db.fn.now() });
}
