import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { WebhookAttemptRow, WebhookMessageRow } from '../webhook-dispatch';

/** A message as the log reads it: with its event's type and body. */
export type LoggedWebhookMessage = WebhookMessageRow & { event_type: string; payload: unknown };

/** What the message log may be narrowed to (all optional). */
export interface WebhookMessageFilter {
  eventType?: string;
  status?: string;
  createdAfter?: Date;
  createdBefore?: Date;
}

/** A message's columns, its event's type and its event's body (the request payload every attempt sent). */
const MESSAGE_COLUMNS = ['d.*', 'ev.type as event_type', 'ev.body as payload'];

export interface RecoverRequest {
  partnerId: string;
  /** The endpoint's mode: a test endpoint recovers test events only, a live one live events only. */
  livemode: boolean;
  endpointId: string;
  /** Event types the endpoint receives (its subscriptions plus the always-delivered ones). */
  types: string[];
  since: Date;
  includeSucceeded: boolean;
  /** Attempts each recovered message gets. */
  maxAttempts: number;
}

/** An endpoint's messages and their attempts as the partner sees them, and the test events and recovers that queue new ones (in the caller's transaction). */
export interface WebhookMessageLogRepository {
  /** The endpoint API's view of the messages sent to one endpoint: newest first, with the event's type and body. */
  listWebhookMessages(partnerId: string, endpointId: string, page: { limit: number; cursor?: string } & WebhookMessageFilter): Promise<LoggedWebhookMessage[]>;
  attemptsOf(messageIds: string[]): Promise<WebhookAttemptRow[]>;
  findWebhookMessage(partnerId: string, endpointId: string, id: string): Promise<LoggedWebhookMessage | undefined>;
  /**
   * A failed delivery (or, to replay it, a finished one: failed or succeeded) goes back to pending with one more attempt
   * allowed; false when it was not in one of those states.
   */
  reopenFailedWebhookMessage(id: string, from?: ('failed' | 'succeeded')[]): Promise<boolean>;
  /** One message for one endpoint, outside the relay (a test event); returns the new row. */
  insertWebhookMessage(trx: Knex.Transaction, row: { id: string; event_id: string; endpoint_id: string; partner_id: string; max_attempts: number }): Promise<LoggedWebhookMessage>;
  /** An event that must reach only the endpoint it names: the relay skips events already marked dispatched. */
  markEventDispatched(trx: Knex.Transaction, eventId: string): Promise<void>;
  /**
   * Makes every event of the partner since `since`, of a type the endpoint receives, pending again for this endpoint:
   * a message is created where none exists (the endpoint was disabled, or not yet subscribed), a failed one (or, when
   * asked, a succeeded one) is reopened with a fresh attempt budget. Pending messages are left as they are (never queued
   * twice). Each message it queues is marked `recovered_at`: the recover is in progress while one of them is pending.
   */
  recoverWebhookMessages(trx: Knex.Transaction, request: RecoverRequest): Promise<{ id: string; event_id: string; endpoint_id: string }[]>;
  /** True while a message an earlier recover queued for this endpoint is still pending (recovers coalesce). */
  recoverInProgress(trx: Knex.Transaction, endpointId: string): Promise<boolean>;
  /** The endpoint's attempts over the last 24 hours and 7 days before `now`, in one query (see EndpointStatsRow). */
  endpointStats(partnerId: string, endpointId: string, now: Date): Promise<EndpointStatsRow>;
}

/** Per window (`_24h`, `_7d`): messages attempted, attempts, attempts answered 2xx, and the attempts' p50/p95 duration. */
export interface EndpointStatsRow {
  messages_24h: number;
  attempts_24h: number;
  succeeded_24h: number;
  p50_24h: number | null;
  p95_24h: number | null;
  messages_7d: number;
  attempts_7d: number;
  succeeded_7d: number;
  p50_7d: number | null;
  p95_7d: number | null;
}

/**
 * Both windows in one scan of the endpoint's last 7 days of attempts: each aggregate is filtered to its window, and the
 * latencies are continuous percentiles (`percentile_cont`, interpolated as Svix and most dashboards show them).
 */
const ENDPOINT_STATS_SQL = `
  select
    count(distinct a.delivery_id) filter (where a.created_at > :day) :: int as messages_24h,
    count(*) filter (where a.created_at > :day) :: int as attempts_24h,
    count(*) filter (where a.created_at > :day and a.status_code between 200 and 299) :: int as succeeded_24h,
    percentile_cont(0.5) within group (order by a.duration_ms) filter (where a.created_at > :day) as p50_24h,
    percentile_cont(0.95) within group (order by a.duration_ms) filter (where a.created_at > :day) as p95_24h,
    count(distinct a.delivery_id) :: int as messages_7d,
    count(*) :: int as attempts_7d,
    count(*) filter (where a.status_code between 200 and 299) :: int as succeeded_7d,
    percentile_cont(0.5) within group (order by a.duration_ms) as p50_7d,
    percentile_cont(0.95) within group (order by a.duration_ms) as p95_7d
  from webhook_attempts a
  join webhook_deliveries d on d.id = a.delivery_id
  where d.partner_id = :partnerId and d.endpoint_id = :endpointId and a.created_at > :week and a.created_at <= :now`;

/** The Postgres webhook message and attempt tables, read and reopened for the endpoint API. */
export function createWebhookMessageLogRepository(db: Knex): WebhookMessageLogRepository {
  return {
    async listWebhookMessages(partnerId, endpointId, page) {
      const query = db('webhook_deliveries as d')
        .join('outbox_events as ev', 'ev.id', 'd.event_id')
        .select(MESSAGE_COLUMNS)
        .where({ 'd.partner_id': partnerId, 'd.endpoint_id': endpointId });
      if (page.eventType) query.where('ev.type', page.eventType);
      if (page.status) query.where('d.status', page.status);
      if (page.createdAfter) query.where('d.created_at', '>', page.createdAfter);
      if (page.createdBefore) query.where('d.created_at', '<', page.createdBefore);
      if (page.cursor) {
        query.whereRaw('(d.created_at, d.id) < (select created_at, id from webhook_deliveries where id = ? and endpoint_id = ?)', [page.cursor, endpointId]);
      }
      const rows: LoggedWebhookMessage[] = await query
        .orderBy([{ column: 'd.created_at', order: 'desc' }, { column: 'd.id', order: 'desc' }])
        .limit(page.limit + 1);
      return rows;
    },
    async attemptsOf(messageIds) {
      if (messageIds.length === 0) return [];
      return db('webhook_attempts').whereIn('delivery_id', messageIds).orderBy([{ column: 'delivery_id' }, { column: 'attempt' }]);
    },
    async findWebhookMessage(partnerId, endpointId, id) {
      const row: LoggedWebhookMessage | undefined = await db('webhook_deliveries as d')
        .join('outbox_events as ev', 'ev.id', 'd.event_id')
        .select(MESSAGE_COLUMNS)
        .where({ 'd.id': id, 'd.partner_id': partnerId, 'd.endpoint_id': endpointId })
        .first();
      return row;
    },
    async reopenFailedWebhookMessage(id, from = ['failed']) {
      const count = await db('webhook_deliveries')
        .where({ id })
        .whereIn('status', from)
        .update({ status: 'pending', max_attempts: db.raw('greatest(max_attempts, attempts + 1)'), next_attempt_at: db.fn.now(), updated_at: db.fn.now() });
      return count > 0;
    },
    async insertWebhookMessage(trx, row) {
      await trx('webhook_deliveries').insert(row);
      const created: LoggedWebhookMessage = await trx('webhook_deliveries as d')
        .join('outbox_events as ev', 'ev.id', 'd.event_id')
        .select(MESSAGE_COLUMNS)
        .where('d.id', row.id)
        .first();
      return created;
    },
    async markEventDispatched(trx, eventId) {
      await trx('outbox_events').where({ id: eventId }).update({ dispatched_at: trx.fn.now() });
    },
    async recoverWebhookMessages(trx, request) {
      const missing: { id: string }[] = await trx('outbox_events as ev')
        .select('ev.id')
        .where('ev.partner_id', request.partnerId)
        .where('ev.livemode', request.livemode)
        .where('ev.created_at', '>=', request.since)
        .whereIn('ev.type', request.types)
        .whereNotExists(trx('webhook_deliveries as d').select(trx.raw('1')).whereRaw('d.event_id = ev.id').where('d.endpoint_id', request.endpointId));
      const created: { id: string; event_id: string; endpoint_id: string }[] = [];
      for (let i = 0; i < missing.length; i += 1000) {
        const rows = missing.slice(i, i + 1000).map((e) => ({ id: newId('whd'), event_id: e.id, endpoint_id: request.endpointId, partner_id: request.partnerId, max_attempts: request.maxAttempts }));
        const marked = rows.map((row) => ({ ...row, recovered_at: trx.fn.now() }));
        created.push(...(await trx('webhook_deliveries').insert(marked).onConflict(['event_id', 'endpoint_id']).ignore().returning(['id', 'event_id', 'endpoint_id'])));
      }
      const reopenable = request.includeSucceeded ? ['failed', 'succeeded'] : ['failed'];
      const reopened: { id: string; event_id: string; endpoint_id: string }[] = await trx('webhook_deliveries as d')
        .where('d.endpoint_id', request.endpointId)
        .whereIn('d.status', reopenable)
        .whereIn('d.event_id', trx('outbox_events').select('id').where({ partner_id: request.partnerId, livemode: request.livemode }).where('created_at', '>=', request.since).whereIn('type', request.types))
        .update({ status: 'pending', max_attempts: trx.raw('d.attempts + ?', [request.maxAttempts]), next_attempt_at: trx.fn.now(), updated_at: trx.fn.now(), recovered_at: trx.fn.now() })
        .returning(['d.id', 'd.event_id', 'd.endpoint_id']);
      return [...created, ...reopened];
    },
    async endpointStats(partnerId, endpointId, now) {
      const day = new Date(now.getTime() - 24 * 3600_000);
      const week = new Date(now.getTime() - 7 * 24 * 3600_000);
      const result = await db.raw<{ rows: EndpointStatsRow[] }>(ENDPOINT_STATS_SQL, { partnerId, endpointId, now, day, week });
      return result.rows[0]!;
    },
    async recoverInProgress(trx, endpointId) {
      const row = await trx('webhook_deliveries').where({ endpoint_id: endpointId, status: 'pending' }).whereNotNull('recovered_at').first('id');
      return Boolean(row);
    },
  };
}
