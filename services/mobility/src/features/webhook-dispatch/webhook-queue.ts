import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from '@platform/service-kit/redis';
import { QUEUES } from '../../platform/queues';
import type { WebhookMessageRef } from './webhook-messages.repository';

/** Job data carries ids and the trace header only: the secret and the body are read from Postgres at send time (no secrets in Redis). */
export interface WebhookMessageJobData {
  deliveryId: string;
  endpointId: string;
  /** The W3C traceparent of the request that caused the event, when there was one: the POST continues its trace. */
  traceparent?: string;
}

/** One message of a batch job: its event id names the single job the message moves to when it must be tried later. */
export interface WebhookBatchMessage {
  deliveryId: string;
  eventId: string;
  traceparent?: string;
}

/** Several messages for one endpoint in one job (a backlog moved by the relay): one BullMQ round trip for all of them. */
export interface WebhookBatchJobData {
  endpointId: string;
  messages: WebhookBatchMessage[];
}

export type WebhookJobData = WebhookMessageJobData | WebhookBatchJobData;

export const isBatchJob = (data: WebhookJobData): data is WebhookBatchJobData => 'messages' in data;

export type WebhookQueue = Queue<WebhookJobData>;

/** Messages per batch job: a batch is sent with at most the endpoint's in-flight cap at a time, so this bounds its run. */
export const WEBHOOK_BATCH_SIZE = 50;

export const WEBHOOK_BACKOFF_TYPE = 'webhook';

/**
 * BullMQ's own attempt budget is only a safety net for infrastructure errors (Postgres down): the number of HTTP
 * attempts is counted in `webhook_deliveries`, which survives a Redis flush; the processor ends a job with
 * UnrecoverableError when that budget is spent. A job that still runs out here is found again by the relay's sweep.
 */
const JOB_OPTIONS: JobsOptions = {
  attempts: 100,
  backoff: { type: WEBHOOK_BACKOFF_TYPE },
  removeOnComplete: true,
  removeOnFail: true,
};

export function createWebhookQueue(connection: Redis, prefix: string): WebhookQueue {
  return new Queue<WebhookJobData>(QUEUES.webhooks, { connection, prefix });
}

/**
 * The job id is the event × endpoint pair, so enqueueing the same delivery twice while its job lives is a no-op.
 * (BullMQ refuses `:` in custom ids, hence the dot.)
 */
export function webhookMessageJobId(eventId: string, endpointId: string): string {
  return `${eventId}.${endpointId}`;
}

export async function enqueueWebhookMessages(queue: WebhookQueue, messages: WebhookMessageRef[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 500) {
    await queue.addBulk(
      messages.slice(i, i + 500).map((d) => ({
        name: 'deliver',
        data: { deliveryId: d.id, endpointId: d.endpoint_id, ...(d.traceparent ? { traceparent: d.traceparent } : {}) },
        opts: { ...JOB_OPTIONS, jobId: webhookMessageJobId(d.event_id, d.endpoint_id) },
      })),
    );
  }
}

/**
 * The relay's path: new messages grouped by endpoint into batch jobs of up to WEBHOOK_BATCH_SIZE (a lone message is
 * an ordinary single job). A batch job's id is its first message's, so enqueueing the same batch twice adds one job.
 * A message that must be tried again later leaves its batch for a single job (`enqueueWebhookMessageLater`).
 */
export async function enqueueWebhookBatches(queue: WebhookQueue, messages: WebhookMessageRef[]): Promise<void> {
  const byEndpoint = new Map<string, WebhookMessageRef[]>();
  for (const m of messages) {
    const group = byEndpoint.get(m.endpoint_id);
    if (group) group.push(m);
    else byEndpoint.set(m.endpoint_id, [m]);
  }
  const singles: WebhookMessageRef[] = [];
  const batches: { name: string; data: WebhookBatchJobData; opts: JobsOptions }[] = [];
  for (const [endpointId, group] of byEndpoint) {
    if (group.length === 1) singles.push(group[0]!);
    else {
      for (let i = 0; i < group.length; i += WEBHOOK_BATCH_SIZE) {
        const chunk = group.slice(i, i + WEBHOOK_BATCH_SIZE);
        const data = { endpointId, messages: chunk.map((m) => ({ deliveryId: m.id, eventId: m.event_id, ...(m.traceparent ? { traceparent: m.traceparent } : {}) })) };
        batches.push({ name: 'deliver-batch', data, opts: { ...JOB_OPTIONS, jobId: `batch.${chunk[0]!.id}` } });
      }
    }
  }
  for (let i = 0; i < batches.length; i += 100) await queue.addBulk(batches.slice(i, i + 100));
  if (singles.length) await enqueueWebhookMessages(queue, singles);
}

/**
 * A message of a batch job that must wait (its endpoint is busy or hanging, its attempt failed, another job holds
 * it): its own single job, `delayMs` from now. When a single job for it exists already, that one stays.
 */
export async function enqueueWebhookMessageLater(queue: WebhookQueue, endpointId: string, message: WebhookBatchMessage, delayMs: number): Promise<void> {
  const data: WebhookMessageJobData = { deliveryId: message.deliveryId, endpointId, ...(message.traceparent ? { traceparent: message.traceparent } : {}) };
  await queue.add('deliver', data, { ...JOB_OPTIONS, jobId: webhookMessageJobId(message.eventId, endpointId), delay: Math.max(0, Math.round(delayMs)) });
}

/**
 * Which of these messages have no single job in Redis (lost in a flush or a crash between commit and enqueue). A
 * message still waiting in a batch job counts as missing too: the sweep then adds a single job beside the batch, and
 * the claim lease lets only one of the two send it.
 */
export async function webhookMessagesWithoutJob(queue: WebhookQueue, messages: WebhookMessageRef[]): Promise<WebhookMessageRef[]> {
  if (messages.length === 0) return [];
  const client = (await queue.client) as unknown as Redis;
  const pipeline = client.pipeline();
  for (const d of messages) pipeline.exists(queue.toKey(webhookMessageJobId(d.event_id, d.endpoint_id)));
  const results = (await pipeline.exec()) ?? [];
  return messages.filter((_d, i) => results[i]?.[1] === 0);
}
