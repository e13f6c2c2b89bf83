import type { Knex } from '@platform/service-kit/db';

/** What dispatch reads of a partner's endpoint to fan an event out. */
export interface WebhookTarget {
  id: string;
  partner_id: string;
  livemode: boolean;
  events: string[];
}

/** Enabled endpoints of these partners; FOR SHARE so an endpoint is not deleted under the relay's feet. */
export async function enabledEndpointsOf(trx: Knex.Transaction, partnerIds: string[]): Promise<WebhookTarget[]> {
  return trx('webhook_endpoints').select('id', 'partner_id', 'livemode', 'events').whereIn('partner_id', partnerIds).where({ status: 'enabled' }).forShare();
}

/** Rewrites a stored secret (plaintext or under an older key) as re-encrypted, unless it changed meanwhile. */
export async function replaceStoredSecret(db: Knex, id: string, previous: string, encrypted: string): Promise<void> {
  await db('webhook_endpoints').where({ id, secret: previous }).update({ secret: encrypted });
}

/** Endpoints whose secret is not yet encrypted under `keyId` (plaintext rows from before encryption, older keys). */
export async function endpointsWithStaleSecrets(db: Knex, keyId: string, limit: number): Promise<{ id: string; secret: string }[]> {
  return db('webhook_endpoints').select('id', 'secret').whereRaw('not starts_with(secret, ?)', [`v1:${keyId}:`]).orderBy('id').limit(limit);
}
