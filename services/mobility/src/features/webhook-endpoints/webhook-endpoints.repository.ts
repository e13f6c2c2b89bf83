import type { Knex } from '@platform/service-kit/db';
import type { SubscribableEventType } from './webhook-events';

export type EndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpointRow {
  id: string;
  partner_id: string;
  /** false: a test-mode endpoint, which receives test events only. */
  livemode: boolean;
  url: string;
  events: SubscribableEventType[];
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

/** Whose endpoints: a partner's, in one mode (a test key sees and manages only test endpoints, and the reverse). */
export interface EndpointOwner {
  partnerId: string;
  livemode: boolean;
}

const owned = ({ partnerId, livemode }: EndpointOwner) => ({ partner_id: partnerId, livemode });

export interface PageRequest {
  limit: number;
  /** The id of the last item of the previous page. */
  cursor?: string;
}

export type EndpointChanges = Partial<Pick<WebhookEndpointRow, 'url' | 'events' | 'description' | 'status' | 'disabled_reason' | 'failing_since'>>;

/** A partner's webhook endpoints; registration and changes run in the caller's transaction (`trx`, `conn`) under the partner's endpoint lock. */
export interface WebhookEndpointsRepository {
  /**
   * Serialises registrations of one partner until the transaction ends, so the endpoint cap and the duplicate-URL rule
   * hold under concurrent requests.
   */
  lockPartnerEndpoints(trx: Knex.Transaction, partnerId: string): Promise<void>;
  /** Every endpoint of the partner in this mode (at most the cap), for the count and the duplicate check. */
  endpointUrlsOf(trx: Knex.Transaction, owner: EndpointOwner): Promise<{ url: string; status: EndpointStatus }[]>;
  /** The partner's other endpoints, for the duplicate-URL rule of an update. */
  listOtherEndpointUrls(trx: Knex.Transaction, owner: EndpointOwner, id: string): Promise<{ url: string; status: EndpointStatus }[]>;
  insertEndpoint(conn: Knex, row: Omit<WebhookEndpointRow, 'created_at' | 'updated_at' | 'disabled_reason' | 'status' | 'previous_secret' | 'previous_secret_expires_at' | 'failing_since'>): Promise<WebhookEndpointRow>;
  /** Newest first; one row more than asked, so the caller knows whether there is a next page. */
  listEndpoints(owner: EndpointOwner, page: PageRequest): Promise<WebhookEndpointRow[]>;
  findEndpoint(owner: EndpointOwner, id: string): Promise<WebhookEndpointRow | undefined>;
  /** Deletes the endpoint with its deliveries and attempt log; false when the partner has no such endpoint. */
  deleteEndpoint(owner: EndpointOwner, id: string): Promise<boolean>;
  /** The endpoint's row, locked until the transaction ends. */
  lockEndpoint(trx: Knex.Transaction, owner: EndpointOwner, id: string): Promise<WebhookEndpointRow | undefined>;
  updateEndpoint(trx: Knex.Transaction, id: string, changes: EndpointChanges): Promise<WebhookEndpointRow>;
  /**
   * The current secret becomes the previous one (signing beside the new one for `overlapHours`); the new one is current.
   * `overlapHours` 0: no previous secret is kept at all (expire now).
   */
  rotateEndpointSecret(owner: EndpointOwner, id: string, encryptedSecret: string, overlapHours: number): Promise<WebhookEndpointRow | undefined>;
  /**
   * Takes the partner's recover slot for this mode (one per `minIntervalSeconds`, whatever the endpoint): 0 when taken
   * now, else the seconds until it is free again (nothing changes then).
   */
  takeRecoverSlot(trx: Knex.Transaction, owner: EndpointOwner, minIntervalSeconds: number): Promise<number>;
}

/** The Postgres `webhook_endpoints` table. */
export function createWebhookEndpointsRepository(db: Knex): WebhookEndpointsRepository {
  return {
    async lockPartnerEndpoints(trx, partnerId) {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`webhook_endpoints:${partnerId}`]);
    },
    async endpointUrlsOf(trx, owner) {
      return trx('webhook_endpoints').select('url', 'status').where(owned(owner));
    },
    async listOtherEndpointUrls(trx, owner, id) {
      return trx('webhook_endpoints').select('url', 'status').where(owned(owner)).whereNot({ id });
    },
    async insertEndpoint(conn, row) {
      const [created] = await conn('webhook_endpoints').insert(row).returning('*');
      return created as WebhookEndpointRow;
    },
    async listEndpoints(owner, page) {
      const query = db('webhook_endpoints').where(owned(owner));
      if (page.cursor) {
        query.whereRaw('(created_at, id) < (select created_at, id from webhook_endpoints where id = ? and partner_id = ? and livemode = ?)', [page.cursor, owner.partnerId, owner.livemode]);
      }
      return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit + 1);
    },
    async findEndpoint(owner, id) {
      return db('webhook_endpoints').where({ id, ...owned(owner) }).first();
    },
    async deleteEndpoint(owner, id) {
      const count = await db('webhook_endpoints').where({ id, ...owned(owner) }).delete();
      return count > 0;
    },
    async lockEndpoint(trx, owner, id) {
      return trx('webhook_endpoints').where({ id, ...owned(owner) }).forUpdate().first();
    },
    async updateEndpoint(trx, id, changes) {
      const [row] = await trx('webhook_endpoints').where({ id }).update({ ...changes, updated_at: trx.fn.now() }).returning('*');
      return row as WebhookEndpointRow;
    },
    async rotateEndpointSecret(owner, id, encryptedSecret, overlapHours) {
      const [row] = await db('webhook_endpoints')
        .where({ id, ...owned(owner) })
        .update({
          previous_secret: overlapHours > 0 ? db.ref('secret') : null,
          previous_secret_expires_at: overlapHours > 0 ? db.raw('now() + make_interval(hours => ?)', [overlapHours]) : null,
          secret: encryptedSecret,
          updated_at: db.fn.now(),
        })
        .returning('*');
      return row as WebhookEndpointRow | undefined;
    },
    async takeRecoverSlot(trx, owner, minIntervalSeconds) {
      const { rows: taken } = await trx.raw<{ rows: unknown[] }>(
        `insert into webhook_recover_marks (partner_id, livemode, last_recovered_at) values (?, ?, now())
         on conflict (partner_id, livemode) do update set last_recovered_at = now()
         where webhook_recover_marks.last_recovered_at <= now() - make_interval(secs => ?)
         returning 1`,
        [owner.partnerId, owner.livemode, minIntervalSeconds],
      );
      if (taken.length) return 0;
      const { rows } = await trx.raw<{ rows: { wait: string | null }[] }>(
        'select ceil(extract(epoch from (last_recovered_at + make_interval(secs => ?) - now()))) as wait from webhook_recover_marks where partner_id = ? and livemode = ?',
        [minIntervalSeconds, owner.partnerId, owner.livemode],
      );
      return Math.max(1, Number(rows[0]?.wait ?? 1));
    },
  };
}
