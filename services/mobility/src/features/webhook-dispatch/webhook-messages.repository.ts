import type { Knex } from '@platform/service-kit/db';
import type { WebhookMessageRow } from './webhook-message.types';

/** What a delivery job needs to send one attempt. */
export interface ClaimedAttempt {
  messageId: string;
  /** This claim's own token: renewing, giving back and recording the attempt are conditional on it. */
  claimToken: string;
  attempt: number;
  maxAttempts: number;
  endpointId: string;
  url: string;
  /** As stored: encrypted (endpoint-secret-cipher.ts), or plaintext in a row from before encryption. */
  secret: string;
  /** The rotated-away secret while its 24 h overlap lasts (stored the same way), else null. */
  previousSecret: string | null;
  eventId: string;
  eventType: string;
  body: Record<string, unknown>;
}

export type WebhookMessageRef = Pick<WebhookMessageRow, 'id' | 'event_id' | 'endpoint_id'> & {
  /** The event's traceparent, for the job (null: the event was not appended inside a request). */
  traceparent?: string | null;
};

/** One row per event × endpoint; a pair that already exists is left alone. Returns the rows it created. */
export async function insertWebhookMessages(trx: Knex.Transaction, rows: Omit<WebhookMessageRow, 'status' | 'attempts' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'delivered_at' | 'created_at' | 'updated_at' | 'claimed_until' | 'claim_token'>[]): Promise<WebhookMessageRef[]> {
  const created: WebhookMessageRef[] = [];
  // The rows travel as one JSON document per chunk rather than five bound parameters each: a relay batch is thousands
  // of rows, and building, binding and planning a VALUES list that long cost more than the insert itself.
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000).map((r) => ({ id: r.id, event_id: r.event_id, endpoint_id: r.endpoint_id, partner_id: r.partner_id, max_attempts: r.max_attempts }));
    const result = await trx.raw(
      `insert into webhook_deliveries (id, event_id, endpoint_id, partner_id, max_attempts)
       select id, event_id, endpoint_id, partner_id, max_attempts
         from jsonb_to_recordset(?::jsonb) as t(id text, event_id text, endpoint_id text, partner_id text, max_attempts int)
       on conflict (event_id, endpoint_id) do nothing
       returning id, event_id, endpoint_id`,
      [JSON.stringify(chunk)],
    );
    created.push(...(result.rows as WebhookMessageRef[]));
  }
  return created;
}

/**
 * `coalesce(d.status, '') = 'pending'` (status is never null) means `d.status = 'pending'` but keeps the planner off the
 * partial index `webhook_deliveries_pending`: with statistics that lag a burst (a fresh table, thousands of deliveries
 * enqueued within seconds) it estimates a handful of pending rows and scans every pending row (or, joined to the
 * endpoints, every pending row once per endpoint) instead of looking up the few ids asked for by primary key. Measured
 * in `pnpm bench:webhooks`: 14 ids, 100 endpoints, ~11,000 pending rows took ~50 ms that way and 0.2 ms by key.
 */
const IS_PENDING = `coalesce(d.status, '') = 'pending'`;

/**
 * Starts the next attempt of pending deliveries to enabled endpoints, counting each before its request is sent; one
 * statement for the whole batch. The conditional update is the guard against sending after a 2xx: a delivery that is
 * no longer pending is never claimed. Each claim takes a lease of `leaseMs` (`claimed_until`): a delivery whose lease
 * runs is not claimed again, so two jobs holding the same delivery never both send it; recording the attempt ends it.
 * Each claim gets a token of its own (`claim_token`): its holder renews the lease with it while the attempt runs
 * (`renewClaims`), and giving the attempt back or moving the delivery on requires it. Answers in the order asked,
 * `undefined` for a delivery that was not claimed.
 * The update finds its rows by primary key only (the endpoint and event checks are per-row subqueries, so the planner
 * cannot start from the endpoints); the endpoint and event columns are joined to the few claimed rows afterwards.
 */
export async function claimAttempts(db: Knex, messageIds: string[], leaseMs: number): Promise<(ClaimedAttempt | undefined)[]> {
  const result = await db.raw(
    `with claimed as (
       update webhook_deliveries d
          set attempts = d.attempts + 1, updated_at = now(), claimed_until = now() + (? * interval '1 millisecond'),
              claim_token = gen_random_uuid()::text
        where d.id = any(?::text[]) and ${IS_PENDING} and d.attempts < d.max_attempts
          and (d.claimed_until is null or d.claimed_until <= now())
          and (select e.status from webhook_endpoints e where e.id = d.endpoint_id) = 'enabled'
          and exists (select 1 from outbox_events ev where ev.id = d.event_id)
    returning d.id, d.attempts, d.max_attempts, d.endpoint_id, d.event_id, d.claim_token
     )
     select c.id, c.claim_token, c.attempts, c.max_attempts, c.endpoint_id, e.url, e.secret,
            case when e.previous_secret_expires_at > now() then e.previous_secret end as previous_secret,
            ev.id as event_id, ev.type, ev.body
       from claimed c
       join webhook_endpoints e on e.id = c.endpoint_id
       join outbox_events ev on ev.id = c.event_id`,
    [leaseMs, messageIds],
  );
  const byId = new Map<string, ClaimedAttempt>();
  for (const row of result.rows) {
    byId.set(row.id, {
      messageId: row.id,
      claimToken: row.claim_token,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      endpointId: row.endpoint_id,
      url: row.url,
      secret: row.secret,
      previousSecret: row.previous_secret,
      eventId: row.event_id,
      eventType: row.type,
      body: row.body,
    });
  }
  // An id asked twice in one batch (two jobs of one process holding the same delivery) is claimed once: the first asker
  // gets it, the other finds it held.
  return messageIds.map((id) => {
    const claimed = byId.get(id);
    byId.delete(id);
    return claimed;
  });
}

/**
 * Gives back claimed attempts that were never sent (their endpoint had no free slot), one statement for all of them:
 * each only if its claim is still the one given back. The attempt then does not count. (The ids go twice, the second
 * time as `id = any(array)`, so the planner looks them up by key instead of scanning every delivery: see recordAttempts.)
 */
export async function unclaimAttempts(db: Knex, claims: Pick<ClaimedAttempt, 'messageId' | 'claimToken'>[]): Promise<void> {
  if (claims.length === 0) return;
  await db.raw(
    `update webhook_deliveries d
        set attempts = d.attempts - 1, claimed_until = null, claim_token = null, updated_at = now()
       from unnest(?::text[], ?::text[]) as given(id, token)
      where d.id = given.id and d.id = any(?::text[]) and d.claim_token = given.token and ${IS_PENDING}`,
    [claims.map((c) => c.messageId), claims.map((c) => c.claimToken), claims.map((c) => c.messageId)] as unknown as Knex.RawBinding[],
  );
}

/**
 * Extends the leases of claims still held by their tokens, one statement for all of them. Answers the ids whose claim
 * is still this holder's: a claim missing from the answer ran out and may belong to another job now. (The ids go
 * twice for the same reason as in unclaimAttempts.)
 */
export async function renewClaims(db: Knex, claims: { messageId: string; claimToken: string }[], leaseMs: number): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const result = await db.raw(
    `update webhook_deliveries d
        set claimed_until = now() + (? * interval '1 millisecond')
       from unnest(?::text[], ?::text[]) as held(id, token)
      where d.id = held.id and d.id = any(?::text[]) and d.claim_token = held.token and ${IS_PENDING}
  returning d.id`,
    [leaseMs, claims.map((c) => c.messageId), claims.map((c) => c.claimToken), claims.map((c) => c.messageId)] as unknown as Knex.RawBinding[],
  );
  return new Set((result.rows as { id: string }[]).map((row) => row.id));
}

export async function findWebhookMessageForJob(db: Knex, messageId: string): Promise<(WebhookMessageRow & { endpoint_status: string }) | undefined> {
  return db('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select('d.*', 'e.status as endpoint_status')
    .where('d.id', messageId)
    .first();
}

export interface AttemptRecord {
  messageId: string;
  /** The claim the attempt was sent under: only a success moves a delivery another claim holds now. */
  claimToken: string;
  attempt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
  /** The headers sent and the headers answered (null when no answer came), for the message log. */
  requestHeaders?: Record<string, string> | null;
  responseHeaders?: Record<string, string> | null;
  /** The delivery's state after this attempt. */
  next: { status: 'succeeded' } | { status: 'failed' } | { status: 'pending'; retryInMs: number };
}

/** Postgres codes of a recording that lost a race with a deleted endpoint: worth one more try on a fresh snapshot. */
const LOST_A_RACE = new Set(['23503' /* foreign_key_violation */, '40P01' /* deadlock_detected */]);
const RECORD_TRIES = 3;

/**
 * Logs each attempt and moves its delivery on: one statement for the whole batch. Every attempt sent is logged; a
 * failed one moves its delivery (and ends the lease) only while its claim is the current one, so a holder whose lease
 * ran out cannot hand the delivery to a new attempt while the job that took over still has one on the wire. A 2xx
 * always marks the delivery succeeded: it was delivered. Answers, in order, whether the
 * delivery was still there: an endpoint deleted while its request was on the wire takes its deliveries with it, and
 * then there is nothing to record (false). The statement skips deliveries that are gone; one deleted between its
 * snapshot and its write is a foreign-key violation on `webhook_attempts`, and a fresh try no longer sees it.
 */
export async function recordAttempts(db: Knex, records: AttemptRecord[]): Promise<boolean[]> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await recordAttemptsOnce(db, records);
    } catch (err) {
      if (tries >= RECORD_TRIES || !LOST_A_RACE.has((err as { code?: string }).code ?? '')) throw err;
    }
  }
}

async function recordAttemptsOnce(db: Knex, records: AttemptRecord[]): Promise<boolean[]> {
  // The whole batch travels as one JSON document: node-postgres would otherwise quote and escape every element of
  // eleven arrays (the header objects twice over, as JSON inside an array literal), a visible share of the worker's
  // CPU at thousands of deliveries a second.
  const given = records.map((r) => ({
    delivery_id: r.messageId,
    claim_token: r.claimToken,
    attempt: r.attempt,
    status_code: r.statusCode,
    duration_ms: r.durationMs,
    error: r.error,
    excerpt: r.excerpt,
    next_status: r.next.status,
    retry_ms: r.next.status === 'pending' ? r.next.retryInMs : 0,
    request_headers: r.requestHeaders ?? null,
    response_headers: r.responseHeaders ?? null,
  }));
  // The ids once more as an array: a join to a set-returning function (estimated at 100 rows) makes the planner scan
  // every delivery and hash them, while `id = any(array)` is looked up by primary key (16 ms against 0.5 ms for 34
  // attempts at 5,000 deliveries, and the scan grows with the table).
  const ids = records.map((r) => r.messageId);
  const result = await db.raw(
    `with given as (
       select * from jsonb_to_recordset(?::jsonb)
         as t(delivery_id text, claim_token text, attempt int, status_code int, duration_ms int, error text, excerpt text, next_status text, retry_ms float8, request_headers jsonb, response_headers jsonb)
     ), input as (
       -- deliveries deleted with their endpoint are not recorded (the join finds each by its key, once)
       select g.*, d.endpoint_id from given g join webhook_deliveries d on d.id = g.delivery_id and d.id = any(?::text[])
     ), endpoint_outcomes as (
       select i.endpoint_id, bool_or(i.next_status = 'succeeded') as any_success
         from input i
        group by i.endpoint_id
     ), endpoint_health as (
       -- failing_since: the first failed attempt after the last 2xx (the 5-day disable rule reads it)
       update webhook_endpoints e
          set failing_since = case when o.any_success then null else now() end
         from endpoint_outcomes o
        where e.id = o.endpoint_id
          and ((o.any_success and e.failing_since is not null) or (not o.any_success and e.failing_since is null))
     ), logged as (
       insert into webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, response_body_excerpt, request_headers, response_headers)
       select delivery_id, attempt, status_code, duration_ms, error, excerpt, request_headers, response_headers from input
     ), moved as (
       update webhook_deliveries d
          set status = i.next_status, last_status_code = i.status_code, last_error = i.error, updated_at = now(), claimed_until = null, claim_token = null,
              delivered_at = case when i.next_status = 'succeeded' then now() else d.delivered_at end,
              next_attempt_at = now() + (i.retry_ms * interval '1 millisecond')
         from input i
        where d.id = i.delivery_id and d.id = any(?::text[]) and ${IS_PENDING} and (i.next_status = 'succeeded' or d.claim_token = i.claim_token)
     )
     select delivery_id from input`,
    [JSON.stringify(given), ids, ids] as unknown as Knex.RawBinding[],
  );
  const present = new Set((result.rows as { delivery_id: string }[]).map((row) => row.delivery_id));
  return records.map((r) => present.has(r.messageId));
}

/** Marks a pending delivery failed without sending (its endpoint was disabled, or its attempts are used up). */
export async function failWebhookMessage(db: Knex, messageId: string, reason: string): Promise<void> {
  await db('webhook_deliveries').where({ id: messageId, status: 'pending' }).update({ status: 'failed', last_error: reason, updated_at: db.fn.now() });
}

/** Pending deliveries that should be in the queue by now and that no job holds: the candidates to re-enqueue after Redis lost them. */
export async function duePendingWebhookMessages(db: Knex, olderThanMs: number, limit: number): Promise<WebhookMessageRef[]> {
  return db('webhook_deliveries as d')
    .join('outbox_events as ev', 'ev.id', 'd.event_id')
    .select('d.id', 'd.event_id', 'd.endpoint_id', 'ev.traceparent')
    .where({ 'd.status': 'pending' })
    .whereRaw(`d.next_attempt_at <= now() - (? * interval '1 millisecond')`, [olderThanMs])
    .whereRaw('(d.claimed_until is null or d.claimed_until <= now())') // a job is sending it right now
    .orderBy('d.next_attempt_at')
    .limit(limit);
}
