import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { signWebhook } from '@platform/webhook-signature';
import { parseTraceparent, startSpan, type TraceSpan } from '@platform/service-kit/trace-context';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import { createClaimLeases } from './claim-leases';
import { createEndpointSlots } from './endpoint-slots';
import { withDecryptCache, type EndpointSecretCipher } from './endpoint-secret-cipher';
import { replaceStoredSecret } from './webhook-targets.repository';
import type { AppendEndpointEvent } from './endpoint-events';
import { disableEndpoint, FAILING_TOO_LONG_REASON } from './endpoint-health';
import { createStatementBatcher } from './statement-batcher';
import { claimAttempts, unclaimAttempts, failWebhookMessage, findWebhookMessageForJob, recordAttempts, type AttemptRecord, type ClaimedAttempt } from './webhook-messages.repository';
import { isBatchJob, type WebhookBatchJobData, type WebhookBatchMessage, type WebhookJobData, type WebhookMessageJobData } from './webhook-queue';
import type { SendOutcome, WebhookSender } from './webhook-sender';
import type { WebhookAttemptMetrics } from './webhook-metrics';

export interface WebhookMessageProcessorDeps {
  db: Knex;
  sender: WebhookSender;
  logger: Logger;
  metrics?: WebhookAttemptMetrics;
  /** How long to wait after a failed attempt (retry-schedule.ts). */
  retryDelay: (attempt: number) => number;
  /** Requests one endpoint may have in flight in this process, so a slow endpoint cannot take every worker slot. */
  perEndpointInFlight: number;
  /** Decrypts the stored signing secret. */
  secrets: EndpointSecretCipher;
  /** Writes `webhook_endpoint.disabled` to the outbox when an endpoint is disabled. */
  appendEvent: AppendEndpointEvent;
  /** How long a claim holds its delivery without a renewal (its holder renews it every third of this while the attempt runs). */
  claimLeaseMs: number;
  /** Hands a batch message on to its own single job, `delayMs` from now. */
  enqueueLater: (endpointId: string, message: WebhookBatchMessage, delayMs: number) => Promise<void>;
}

interface ProcessorContext extends WebhookMessageProcessorDeps {
  /** Logs an attempt and moves its delivery on (batched with concurrent jobs); false when the delivery is gone (its endpoint was deleted). */
  record: (record: AttemptRecord) => Promise<boolean>;
}

/** Thrown to ask BullMQ for another try after `delayMs` (read by the worker's backoff strategy). */
export class RetryWebhookMessageError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
    this.name = 'RetryWebhookMessageError';
  }
}

/** A 429's Retry-After is honoured up to this long. */
const MAX_DELAY_MS = 10 * 60 * 60 * 1000;

/** WEBHOOK_BACKOFF_MS × 2^(attempt-1), ±20 % jitter, at most 6 h (kept for the WEBHOOK_BACKOFF_MS override). */
export { exponentialDelayMs as retryDelayMs } from './retry-schedule';

export type WebhookAttemptResult = 'succeeded' | 'skipped';

/**
 * What became of one message in a job: done (sent and recorded, or nothing to send), to be tried at `retryInMs`
 * (its attempt failed: recorded pending), to come back after `laterInMs` (nothing was sent: its endpoint is at its
 * limit and hanging, or another job holds it), or failed for good (recorded, with why).
 */
type MessageStep =
  | { kind: 'done'; result: WebhookAttemptResult }
  | { kind: 'retry'; retryInMs: number; error: string }
  | { kind: 'later'; laterInMs: number }
  | { kind: 'gave_up'; error: string };

/**
 * Where a delivered attempt is logged: a single job writes its own info line; a batch's messages write theirs at debug
 * and the batch writes one info line counting them (a backlog drains thousands a second, and a line per delivery was
 * a large share of the worker's CPU). Failures are logged per attempt either way.
 */
type SuccessLine = 'info' | 'debug';

/** 200–500 ms: how long a message waits when its endpoint has no free slot and is not answering. */
const comeBackDelayMs = () => 200 + Math.round(Math.random() * 300);

/**
 * A BullMQ job is either one HTTP attempt of one message, or a batch of messages for one endpoint (the relay's path
 * for a backlog): a batch claims all its messages in one statement (each claim with a lease, renewed while it waits),
 * then sends them with at most the endpoint's in-flight cap at a time, each recorded like a single job's, the attempt
 * logs of concurrent messages sharing one statement.
 * A batch message that must be tried later (a failed attempt, a busy endpoint) leaves the batch for a single delayed
 * job, so a batch job completes once each of its messages was sent or handed on.
 */
export function createWebhookMessageProcessor(options: WebhookMessageProcessorDeps) {
  const deps: ProcessorContext = {
    ...options,
    secrets: withDecryptCache(options.secrets),
    // Concurrent jobs share their attempt-log write: one statement per batch, each still awaited before its job
    // completes, so nothing is acknowledged to BullMQ before Postgres has it.
    record: createStatementBatcher((records: AttemptRecord[]) => recordAttempts(options.db, records)),
  };
  const attempts = messageAttempts(deps);
  const processBatch = batchProcessor(deps, attempts);

  return async function processWebhookJob(job: Job<WebhookJobData>, token?: string): Promise<WebhookAttemptResult> {
    const data = job.data;
    return isBatchJob(data) ? processBatch(job as Job<WebhookBatchJobData>, token) : processSingle(attempts, job as Job<WebhookMessageJobData>, token);
  };
}

/** How one message is attempted, by a single job or within a batch: what both paths share. */
type MessageAttempts = ReturnType<typeof messageAttempts>;

/**
 * One message's attempt: claimed (with a lease, renewed while it runs), given an endpoint slot (at most
 * `perEndpointInFlight` in flight per endpoint), signed, sent and recorded.
 */
function messageAttempts(deps: ProcessorContext) {
  const slots = createEndpointSlots(deps.perEndpointInFlight);
  // Concurrent jobs share their claim: one statement per batch of them.
  const claim = createStatementBatcher((ids: string[]) => claimAttempts(deps.db, ids, deps.claimLeaseMs));
  const leases = createClaimLeases(deps.db, deps.claimLeaseMs, deps.logger);
  // Attempts given back unsent (many at once when a backlog meets an endpoint at its cap) share a statement too.
  const giveBack = createStatementBatcher(async (claims: ClaimedAttempt[]) => (await unclaimAttempts(deps.db, claims), claims.map(() => undefined)));

  // Messages this process is attempting, from before their claim until their attempt is recorded. A process frozen
  // longer than the claim lease (SIGSTOP, a long GC or VM pause) finds, when it runs again, BullMQ handing it the same
  // jobs again (their locks ran out) while it still finishes the attempts it had on the wire: their leases have run out
  // too, so only this set keeps it from claiming and sending them a second time.
  const attempting = new Set<string>();

  async function attemptMessage(messageId: string, endpointId: string, traceparent: string | undefined, successLine: SuccessLine): Promise<MessageStep> {
    // A hanging endpoint's messages go back at once, without touching Postgres; so does one this process is attempting.
    if (slots.wouldRefuse(endpointId) || attempting.has(messageId)) return { kind: 'later', laterInMs: comeBackDelayMs() };
    attempting.add(messageId);
    try {
      return await claimAndSend(messageId, endpointId, traceparent, successLine);
    } finally {
      attempting.delete(messageId);
    }
  }

  async function claimAndSend(messageId: string, endpointId: string, traceparent: string | undefined, successLine: SuccessLine): Promise<MessageStep> {
    // The claim comes before the endpoint slot, so a slot is held only while its request is on the wire.
    const claimStartedAt = performance.now();
    const claimed = await claim(messageId);
    if (!claimed) return settleUnclaimable(deps, messageId);
    leases.hold(claimed, claimStartedAt);
    try {
      return await sendClaimed(claimed, endpointId, traceparent, successLine);
    } finally {
      leases.release(claimed);
    }
  }

  async function sendClaimed(claimed: ClaimedAttempt, endpointId: string, traceparent: string | undefined, successLine: SuccessLine): Promise<MessageStep> {
    if (!(await slots.acquire(endpointId))) {
      await giveBack(claimed); // nothing was sent: the attempt does not count
      return { kind: 'later', laterInMs: comeBackDelayMs() };
    }
    if (!leases.stillHeld(claimed)) {
      // This process did not run for most of the lease (a freeze, a starved CPU): another job may hold the message now.
      slots.release(endpointId);
      await giveBack(claimed);
      return { kind: 'later', laterInMs: comeBackDelayMs() };
    }
    // The POST continues the trace of the request that caused the event (a new span in it); an event without one
    // (a dispatch timeout, say) starts a new trace.
    const span = startSpan('webhook POST', 'client', parseTraceparent(traceparent));
    let outcome: SentAttempt;
    try {
      outcome = await send(deps.sender, claimed, signingSecretsOf(deps, claimed), span.traceparent);
    } finally {
      slots.release(endpointId);
    }
    span.end({ statusCode: outcome.statusCode, error: outcome.error });
    return conclude(deps, claimed, outcome, span, successLine);
  }

  return { slots, leases, attempting, attemptMessage, sendClaimed };
}

/**
 * A batch job: every message claimed in one statement and sent with at most the endpoint's in-flight cap at a time;
 * a message that must be tried later waits once within the batch, then leaves it for a single delayed job.
 */
function batchProcessor(deps: ProcessorContext, { slots, leases, attempting, attemptMessage, sendClaimed }: MessageAttempts) {
  /**
   * The first try of each message of a batch: one statement claims every message this process is not attempting
   * already, and the claims are renewed while they wait for the endpoint's slots; a message not claimed is settled
   * as a single job's would be. Answers one step per message, in order.
   */
  async function firstTries(endpointId: string, messages: WebhookBatchMessage[], inFlight: number): Promise<MessageStep[]> {
    const steps: MessageStep[] = messages.map(() => ({ kind: 'later', laterInMs: comeBackDelayMs() }));
    const mine = messages.map((m) => !attempting.has(m.deliveryId));
    messages.forEach((m, i) => mine[i] && attempting.add(m.deliveryId));
    const claims: (ClaimedAttempt | undefined)[] = [];
    try {
      const claimStartedAt = performance.now();
      claims.push(...(await claimAttempts(deps.db, messages.filter((_m, i) => mine[i]).map((m) => m.deliveryId), deps.claimLeaseMs)));
      for (const claimed of claims) if (claimed) leases.hold(claimed, claimStartedAt);
    } catch (err) {
      // Postgres unreachable, say: every message goes to a single job that BullMQ retries with backoff.
      messages.forEach((m, i) => mine[i] && attempting.delete(m.deliveryId));
      deps.logger.warn({ err, endpointId, messages: messages.length }, 'webhook batch could not be claimed: its messages moved to their own jobs');
      return messages.map(() => ({ kind: 'later', laterInMs: 1000 + Math.round(Math.random() * 1000) }));
    }
    const claimOf = new Map(claims.filter((c): c is ClaimedAttempt => c !== undefined).map((c) => [c.messageId, c]));
    let next = 0;
    const runner = async () => {
      while (next < messages.length) {
        const at = next++;
        const message = messages[at]!;
        if (!mine[at]) continue; // another job of this process is attempting it: later
        const claimed = claimOf.get(message.deliveryId);
        try {
          steps[at] = claimed ? await sendClaimed(claimed, endpointId, message.traceparent, 'debug') : await settleUnclaimable(deps, message.deliveryId);
        } catch (err) {
          deps.logger.warn({ err, messageId: message.deliveryId, endpointId }, 'webhook batch message could not be attempted: moved to its own job');
          steps[at] = { kind: 'later', laterInMs: 1000 + Math.round(Math.random() * 1000) };
        } finally {
          if (claimed) leases.release(claimed);
          attempting.delete(message.deliveryId);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, messages.length) }, runner));
    return steps;
  }

  async function processBatch(job: Job<WebhookBatchJobData>, token?: string): Promise<WebhookAttemptResult> {
    const { endpointId, messages } = job.data;
    // The whole batch waits while its endpoint hangs, before anything is claimed.
    if (slots.wouldRefuse(endpointId)) {
      await job.moveToDelayed(Date.now() + comeBackDelayMs(), token);
      throw new DelayedError();
    }
    const startedAt = performance.now();
    const steps = await firstTries(endpointId, messages, deps.perEndpointInFlight);
    const waiting = messages.map((message, at) => ({ message, step: steps[at]! })).filter(({ step }) => step.kind !== 'done' && step.kind !== 'gave_up');
    let delivered = steps.filter((step) => step.kind === 'done' && step.result === 'succeeded').length;
    let firstError: unknown;
    let next = 0;
    const runner = async () => {
      while (next < waiting.length) {
        const { message } = waiting[next]!;
        let { step } = waiting[next++]!;
        try {
          if (step.kind === 'later') {
            // The batch holds its worker slot anyway: wait here once (a backlog's first wave is usually answered by
            // then) before handing the message on to a job of its own.
            const waitMs = step.laterInMs;
            await new Promise((resolve) => setTimeout(resolve, waitMs));
            step = await attemptMessage(message.deliveryId, endpointId, message.traceparent, 'debug');
          }
        } catch (err) {
          deps.logger.warn({ err, messageId: message.deliveryId, endpointId }, 'webhook batch message could not be attempted: moved to its own job');
          step = { kind: 'later', laterInMs: 1000 + Math.round(Math.random() * 1000) };
        }
        try {
          if (step.kind === 'done' && step.result === 'succeeded') delivered += 1;
          if (step.kind === 'retry') await deps.enqueueLater(endpointId, message, step.retryInMs);
          if (step.kind === 'later') await deps.enqueueLater(endpointId, message, step.laterInMs);
        } catch (err) {
          firstError ??= err; // Redis unreachable: the batch fails and BullMQ runs it again (the claims keep sent messages from going twice)
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(deps.perEndpointInFlight, waiting.length) }, runner));
    deps.logger.info({ endpointId, messages: messages.length, delivered, ms: Math.round(performance.now() - startedAt) }, 'webhook batch done');
    if (firstError !== undefined) throw firstError instanceof Error ? firstError : new Error(String(firstError));
    return 'succeeded';
  }

  return processBatch;
}

/** A single job: one attempt of one message; BullMQ retries it, delays it or gives it up as the attempt's step says. */
async function processSingle({ attemptMessage }: MessageAttempts, job: Job<WebhookMessageJobData>, token?: string): Promise<WebhookAttemptResult> {
  const { deliveryId: messageId, endpointId } = job.data; // job data keeps its field names: jobs already queued still run
  const step = await attemptMessage(messageId, endpointId, job.data.traceparent, 'info');
  switch (step.kind) {
    case 'done':
      return step.result;
    case 'later':
      // This endpoint is at its limit here and not answering (or another job holds the message): give the slot to
      // another job, come back shortly.
      await job.moveToDelayed(Date.now() + step.laterInMs, token);
      throw new DelayedError();
    case 'retry':
      throw new RetryWebhookMessageError(step.error, step.retryInMs);
    case 'gave_up':
      throw new UnrecoverableError(step.error);
  }
}

/**
 * The plaintext signing secrets, newest first: the current one and, during a rotation's 24 h overlap, the previous
 * one (never re-encrypted here: it expires soon). A stored value that is still plaintext or under a previous key is rewritten under the
 * current key in the background (a failed rewrite is retried on the next use and by the worker's start-up pass).
 */
function signingSecretsOf(deps: ProcessorContext, claimed: ClaimedAttempt): string[] {
  const current = currentSecretOf(deps, claimed);
  if (!claimed.previousSecret) return [current];
  return [current, deps.secrets.decrypt(claimed.endpointId, claimed.previousSecret).secret];
}

function currentSecretOf(deps: ProcessorContext, claimed: ClaimedAttempt): string {
  const { secret, stale } = deps.secrets.decrypt(claimed.endpointId, claimed.secret);
  if (stale) {
    replaceStoredSecret(deps.db, claimed.endpointId, claimed.secret, deps.secrets.encrypt(claimed.endpointId, secret)).catch((err: unknown) =>
      deps.logger.warn({ err, endpointId: claimed.endpointId }, 'could not re-encrypt a webhook secret'),
    );
  }
  return secret;
}

async function send(sender: WebhookSender, claimed: ClaimedAttempt, secrets: string[], traceparent: string): Promise<SentAttempt> {
  const body = JSON.stringify(claimed.body);
  const timestamp = Math.floor(Date.now() / 1000);
  const signatures = signWebhook({ secret: secrets, id: claimed.eventId, timestamp, body });
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'PartnerPlatform-Webhooks/1.0',
    'X-Service-Event-Id': claimed.eventId,
    'X-Service-Event-Type': claimed.eventType,
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Delivery-Attempt': String(claimed.attempt),
    traceparent,
    ...signatures,
  };
  return { ...(await sender.send(claimed.url, body, headers)), requestHeaders: headers };
}

/** What one attempt sent and got back. */
type SentAttempt = SendOutcome & { requestHeaders: Record<string, string> };

async function conclude(deps: ProcessorContext, claimed: ClaimedAttempt, outcome: SentAttempt, span: TraceSpan, successLine: SuccessLine): Promise<MessageStep> {
  const code = outcome.statusCode;
  const base = {
    messageId: claimed.messageId,
    claimToken: claimed.claimToken,
    attempt: claimed.attempt,
    statusCode: code,
    durationMs: outcome.durationMs,
    excerpt: outcome.excerpt,
    requestHeaders: outcome.requestHeaders,
    responseHeaders: outcome.headers ?? null,
  };
  const bindings = { messageId: claimed.messageId, endpointId: claimed.endpointId, eventId: claimed.eventId, attempt: claimed.attempt, statusCode: code, trace_id: span.context.traceId };
  // A child logger costs more than the line itself: the success line (one per delivery) writes its fields directly
  // (the same line), and the child is made only when another line needs it.
  let child: Logger | undefined;
  const log = () => (child ??= deps.logger.child(bindings));

  if (code !== null && code >= 200 && code < 300) {
    if (!(await recordSuccess(deps, { ...base, error: null, next: { status: 'succeeded' } }, log))) return endpointDeleted(deps, log);
    deps.metrics?.outcome('succeeded');
    if (deps.logger.isLevelEnabled(successLine)) deps.logger[successLine]({ ...bindings, durationMs: outcome.durationMs }, 'webhook attempt succeeded');
    return { kind: 'done', result: 'succeeded' };
  }
  const error = outcome.error ?? describeStatus(code);
  if (outcome.forbiddenAddress) log().warn({ forbiddenAddress: outcome.forbiddenAddress }, 'refused to connect: the endpoint resolves to a forbidden address');
  if (code === 410) {
    // The endpoint is disabled before the delivery reads as failed, so whoever sees the failed delivery also sees why.
    await disableEndpoint(deps.db, deps.appendEvent, claimed.endpointId, 'The endpoint answered 410 Gone');
    if (!(await deps.record({ ...base, error, next: { status: 'failed' } }))) return endpointDeleted(deps, log);
    deps.metrics?.outcome('endpoint_gone');
    log().warn('endpoint answered 410 Gone: disabled');
    return { kind: 'gave_up', error: 'endpoint answered 410 Gone' };
  }
  if (claimed.attempt >= claimed.maxAttempts) {
    if (!(await deps.record({ ...base, error, next: { status: 'failed' } }))) return endpointDeleted(deps, log);
    await disableIfFailingTooLong(deps, claimed, log);
    deps.metrics?.outcome('failed');
    log().warn({ error }, 'webhook message failed: no attempts left');
    return { kind: 'gave_up', error: `gave up after ${claimed.attempt} attempts: ${error}` };
  }
  const backoff = deps.retryDelay(claimed.attempt);
  const delayMs = code === 429 && outcome.retryAfterMs !== null ? Math.min(MAX_DELAY_MS, outcome.retryAfterMs) : backoff;
  if (!(await deps.record({ ...base, error, next: { status: 'pending', retryInMs: delayMs } }))) return endpointDeleted(deps, log);
  await disableIfFailingTooLong(deps, claimed, log);
  deps.metrics?.outcome('retrying');
  log().info({ error, delayMs }, 'webhook attempt failed: will retry');
  return { kind: 'retry', retryInMs: delayMs, error };
}

/** The 5-day rule: an endpoint with no 2xx since its first failure 5 days ago is disabled (its pending messages then fail unsent). */
async function disableIfFailingTooLong(deps: ProcessorContext, claimed: ClaimedAttempt, log: () => Logger): Promise<void> {
  if (await disableEndpoint(deps.db, deps.appendEvent, claimed.endpointId, FAILING_TOO_LONG_REASON, true)) {
    log().warn('every attempt to this endpoint has failed for 5 days: disabled');
  }
}

/**
 * The endpoint was deleted while the request was on the wire, and its messages and attempt log with it: there is
 * nothing left to record or to retry, and nothing went wrong. The job completes; one info line says so.
 */
function endpointDeleted(deps: ProcessorContext, log: () => Logger): MessageStep {
  deps.metrics?.outcome('endpoint_deleted');
  log().info('webhook endpoint deleted while its message was in flight: the message went with it, nothing to record');
  return { kind: 'done', result: 'skipped' };
}

/**
 * Any 2xx is a success, whatever the answer's body: the job completes even when the bookkeeping fails, because
 * throwing here would make BullMQ send the event again. A failed write is logged and tried once more without the
 * excerpt (the most likely culprit); if even that fails the row stays pending and only the relay's sweep may resend.
 * Answers false when the message is gone (its endpoint was deleted): not a failure.
 */
async function recordSuccess(deps: ProcessorContext, record: AttemptRecord, log: () => Logger): Promise<boolean> {
  try {
    return await deps.record(record);
  } catch (err) {
    log().error({ err }, 'could not record a 2xx answer; recording it without the answer excerpt');
    try {
      return await deps.record({ ...record, excerpt: null });
    } catch (again) {
      log().error({ err: again }, 'could not record a 2xx answer at all: the message stays pending, the relay sweep may send it again');
      return true;
    }
  }
}

/**
 * The delivery could not be claimed: already done, deleted, endpoint disabled, out of attempts, or held by another job
 * (its lease runs: the message comes back when the lease ends, in case that job died). Never sends.
 */
async function settleUnclaimable(deps: ProcessorContext, messageId: string): Promise<MessageStep> {
  const row = await findWebhookMessageForJob(deps.db, messageId);
  if (!row || row.status !== 'pending') return { kind: 'done', result: 'skipped' };
  if (row.endpoint_status !== 'enabled') {
    await failWebhookMessage(deps.db, messageId, 'endpoint disabled');
  } else if (row.attempts >= row.max_attempts) {
    await failWebhookMessage(deps.db, messageId, row.last_error ?? 'no attempts left');
  } else if (row.claimed_until && row.claimed_until.getTime() > Date.now()) {
    // Usually the holder records within milliseconds; a holder that died lets go when its lease ends.
    return { kind: 'later', laterInMs: Math.min(2000, row.claimed_until.getTime() - Date.now() + 100) };
  }
  return { kind: 'done', result: 'skipped' };
}

function describeStatus(code: number | null): string {
  if (code === null) return 'no answer';
  if (code >= 300 && code < 400) return `HTTP ${code}: redirects are not followed`;
  return `HTTP ${code}`;
}
