import type { Knex } from '@platform/service-kit';

export type EndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpointRow {
  id: string;
  partner_id: string;
  url: string;
  events: string[];
  description: string | null;
  /** Encrypted (`v1:<key id>:…`, endpoint-secret-cipher.ts); plaintext `whsec_…` only in rows from before. */
  secret: string;
  status: EndpointStatus;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PageRequest {
  limit: number;
  /** The id of the last item of the previous page. */
  cursor?: string;
}

/**
 * Serialises registrations of one partner until the transaction ends, so the endpoint cap and the duplicate-URL rule
 * hold under concurrent requests.
 */
export async function lockPartnerEndpoints(trx: Knex.Transaction, partnerId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`webhook_endpoints:${partnerId}`]);
}

/** Every endpoint of the partner (at most the cap), for the count and the duplicate check. */
export async function endpointUrlsOf(trx: Knex.Transaction, partnerId: string): Promise<{ url: string; status: EndpointStatus }[]> {
  return trx('webhook_endpoints').select('url', 'status').where({ partner_id: partnerId });
}

export async function insertEndpoint(db: Knex, row: Omit<WebhookEndpointRow, 'created_at' | 'updated_at' | 'disabled_reason' | 'status'>): Promise<WebhookEndpointRow> {
  const [created] = await db('webhook_endpoints').insert(row).returning('*');
  return created as WebhookEndpointRow;
}

/** Newest first; one row more than asked, so the caller knows whether there is a next page. */
export async function listEndpoints(db: Knex, partnerId: string, page: PageRequest): Promise<WebhookEndpointRow[]> {
  const query = db('webhook_endpoints').where({ partner_id: partnerId });
  if (page.cursor) {
    query.whereRaw('(created_at, id) < (select created_at, id from webhook_endpoints where id = ? and partner_id = ?)', [page.cursor, partnerId]);
  }
  return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit + 1);
}

export async function findEndpoint(db: Knex, partnerId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return db('webhook_endpoints').where({ id, partner_id: partnerId }).first();
}

/** Deletes the endpoint with its deliveries and attempt log; false when the partner has no such endpoint. */
export async function deleteEndpoint(db: Knex, partnerId: string, id: string): Promise<boolean> {
  const count = await db('webhook_endpoints').where({ id, partner_id: partnerId }).delete();
  return count > 0;
}
