import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import { ALWAYS_DELIVERED_EVENT_TYPES } from './endpoint-events';
import { enabledEndpointsOf } from './webhook-targets.repository';
import { duePendingWebhookMessages, insertWebhookMessages, type WebhookMessageRef } from './webhook-messages.repository';
import { webhookMessagesWithoutJob, enqueueWebhookBatches, enqueueWebhookMessages, type WebhookQueue } from './webhook-queue';

/** Events in the first transaction of a relay run (then `batchSize`, 2,000 by default). */
const FIRST_BATCH_SIZE = 200;

export interface OutboxRelayDeps {
  db: Knex;
  queue: WebhookQueue;
  logger: Logger;
  /** WEBHOOK_MAX_ATTEMPTS, stamped on each new delivery. */
  maxAttempts: number;
  batchSize?: number;
}

export interface RelayRunOptions {
  /**
   * Also re-enqueue pending messages due at least this long ago whose job is missing from Redis (a flush, a crash
   * between commit and enqueue). Omit to skip the sweep.
   */
  sweepOlderThanMs?: number;
}

export interface RelayRunResult {
  dispatchedEvents: number;
  enqueuedMessages: number;
  requeuedMessages: number;
}

interface ClaimedEvent {
  id: string;
  partner_id: string;
  livemode: boolean;
  type: string;
  traceparent: string | null;
}

/**
 * Moves committed outbox events to the delivery queue: claims a batch of undispatched events (FOR UPDATE SKIP LOCKED,
 * so several relays share the work without waiting on each other), writes one delivery row per subscribed endpoint,
 * marks the events dispatched (live events go to live endpoints only, test events to test endpoints only), and after commit
 * enqueues the deliveries, grouped by endpoint into batch jobs (webhook-queue.ts). A crash after commit leaves the rows
 * pending, and the sweep enqueues them later: Postgres, not Redis, is what makes delivery at least once.
 */
export function createOutboxRelay(deps: OutboxRelayDeps) {
  const batchSize = deps.batchSize ?? 2000; // a backlog moves in a few large transactions

  async function dispatchBatch(limit: number): Promise<{ events: number; messages: WebhookMessageRef[] }> {
    const started = performance.now();
    const result = await deps.db.transaction(async (trx) => {
      const events: ClaimedEvent[] = await trx('outbox_events')
        .select('id', 'partner_id', 'livemode', 'type', 'traceparent')
        .whereNull('dispatched_at')
        .orderBy('created_at')
        .limit(limit)
        .forUpdate()
        .skipLocked();
      if (events.length === 0) return { events: 0, messages: [] };
      const endpoints = await enabledEndpointsOf(trx, [...new Set(events.map((e) => e.partner_id))]);
      const rows = events.flatMap((event) =>
        endpoints
          .filter((endpoint) => endpoint.partner_id === event.partner_id && endpoint.livemode === event.livemode && (endpoint.events.includes(event.type) || ALWAYS_DELIVERED_EVENT_TYPES.includes(event.type)))
          .map((endpoint) => ({ id: newId('whd'), event_id: event.id, endpoint_id: endpoint.id, partner_id: event.partner_id, max_attempts: deps.maxAttempts })),
      );
      const created = rows.length ? await insertWebhookMessages(trx, rows) : [];
      // Each job carries its event's traceparent, so the webhook POST continues the trace of the request behind it.
      const traceparents = new Map(events.map((e) => [e.id, e.traceparent]));
      const messages = created.map((m) => ({ ...m, traceparent: traceparents.get(m.event_id) ?? null }));
      await trx('outbox_events').whereIn('id', events.map((e) => e.id)).update({ dispatched_at: trx.fn.now() });
      return { events: events.length, messages };
    });
    const committed = performance.now();
    if (result.messages.length) await enqueueWebhookBatches(deps.queue, result.messages);
    if (result.events >= 100) {
      // A backlog (a worker back after a pause, a burst): one line per large batch, with where its time went.
      const ms = (from: number, to: number) => Math.round(to - from);
      deps.logger.info({ events: result.events, messages: result.messages.length, transactionMs: ms(started, committed), enqueueMs: ms(committed, performance.now()) }, 'outbox relay moved a batch of events');
    }
    return result;
  }

  async function sweep(olderThanMs: number): Promise<number> {
    let requeued = 0;
    const due = await duePendingWebhookMessages(deps.db, olderThanMs, 2000);
    const missing = await webhookMessagesWithoutJob(deps.queue, due);
    if (missing.length) {
      await enqueueWebhookMessages(deps.queue, missing);
      requeued += missing.length;
      deps.logger.warn({ count: missing.length }, 're-enqueued pending webhook messages whose job was missing');
    }
    return requeued;
  }

  /** Drains the outbox (batch after batch) and optionally sweeps; safe to call from several processes at once. */
  async function runOnce(options: RelayRunOptions = {}): Promise<RelayRunResult> {
    const total: RelayRunResult = { dispatchedEvents: 0, enqueuedMessages: 0, requeuedMessages: 0 };
    // A backlog's first batch is small, so the worker starts sending while the relay moves the rest in large ones.
    for (let limit = Math.min(FIRST_BATCH_SIZE, batchSize); ; limit = batchSize) {
      const batch = await dispatchBatch(limit);
      total.dispatchedEvents += batch.events;
      total.enqueuedMessages += batch.messages.length;
      if (batch.events < limit) break;
    }
    if (options.sweepOlderThanMs !== undefined) total.requeuedMessages = await sweep(options.sweepOlderThanMs);
    return total;
  }

  return { runOnce };
}

export type OutboxRelay = ReturnType<typeof createOutboxRelay>;

export interface RelayLoopOptions {
  intervalMs: number;
  /** How often the sweep runs, and how overdue a pending delivery must be before it counts as lost. */
  sweepEveryMs: number;
  sweepOlderThanMs: number;
}

/** Runs the relay on an interval (never two runs at once in this process); `trigger()` runs it now. */
export function startRelayLoop(relay: OutboxRelay, logger: Logger, options: RelayLoopOptions) {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  let lastSweep = Date.now(); // the first sweep waits: jobs of a previous worker may still be live
  let timer: NodeJS.Timeout | undefined;

  let again = false; // woken while running: the run may have missed what was just committed, so run once more

  const tick = async (): Promise<unknown> => {
    if (stopped) return running;
    if (running) {
      again = true;
      return running;
    }
    again = false;
    const sweepNow = Date.now() - lastSweep >= options.sweepEveryMs;
    running = relay
      .runOnce(sweepNow ? { sweepOlderThanMs: options.sweepOlderThanMs } : {})
      .then(() => {
        if (sweepNow) lastSweep = Date.now();
      })
      .catch((err: unknown) => logger.error({ err }, 'outbox relay run failed'))
      .finally(() => {
        running = undefined;
        if (again) void tick();
      });
    return running;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void tick().finally(schedule), options.intervalMs);
  };
  schedule();
  return {
    trigger: tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
