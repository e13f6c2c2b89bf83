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
  /** The rotated-away secret (encrypted) that still signs until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** The first failed attempt since the last 2xx; null while healthy. */
  failing_since: Date | null;
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

/** The partner's other endpoints, for the duplicate-URL rule of an update. */
export async function listOtherEndpointUrls(trx: Knex.Transaction, partnerId: string, id: string): Promise<{ url: string; status: EndpointStatus }[]> {
  return trx('webhook_endpoints').select('url', 'status').where({ partner_id: partnerId }).whereNot({ id });
}

export async function insertEndpoint(db: Knex, row: Omit<WebhookEndpointRow, 'created_at' | 'updated_at' | 'disabled_reason' | 'status' | 'previous_secret' | 'previous_secret_expires_at' | 'failing_since'>): Promise<WebhookEndpointRow> {
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

/** The endpoint's row, locked until the transaction ends. */
export async function lockEndpoint(trx: Knex.Transaction, partnerId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return trx('webhook_endpoints').where({ id, partner_id: partnerId }).forUpdate().first();
}

export type EndpointChanges = Partial<Pick<WebhookEndpointRow, 'url' | 'events' | 'description' | 'status' | 'disabled_reason' | 'failing_since'>>;

export async function updateEndpoint(trx: Knex.Transaction, id: string, changes: EndpointChanges): Promise<WebhookEndpointRow> {
  const [row] = await trx('webhook_endpoints').where({ id }).update({ ...changes, updated_at: trx.fn.now() }).returning('*');
  return row as WebhookEndpointRow;
}

/** The current secret becomes the previous one (signing beside the new one for `overlapHours`); the new one is current. */
export async function rotateEndpointSecret(db: Knex, partnerId: string, id: string, encryptedSecret: string, overlapHours: number): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db('webhook_endpoints')
    .where({ id, partner_id: partnerId })
    .update({
      previous_secret: db.ref('secret'),
      previous_secret_expires_at: db.raw('now() + make_interval(hours => ?)', [overlapHours]),
      secret: encryptedSecret,
      updated_at: db.fn.now(),
    })
    .returning('*');
  return row as WebhookEndpointRow | undefined;
}
