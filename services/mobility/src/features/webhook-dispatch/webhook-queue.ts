import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from '@platform/service-kit';
import { QUEUES } from '../../queues';
import type { WebhookMessageRef } from './webhook-messages.repository';

/** Job data carries ids and the trace header only: the secret and the body are read from Postgres at send time (no secrets in Redis). */
export interface WebhookMessageJobData {
  deliveryId: string;
  endpointId: string;
  /** The W3C traceparent of the request that caused the event, when there was one: the POST continues its trace. */
  traceparent?: string;
}

export type WebhookQueue = Queue<WebhookMessageJobData>;

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
  return new Queue<WebhookMessageJobData>(QUEUES.webhooks, { connection, prefix });
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

/** Which of these messages have no job in Redis (lost in a flush or a crash between commit and enqueue). */
export async function webhookMessagesWithoutJob(queue: WebhookQueue, messages: WebhookMessageRef[]): Promise<WebhookMessageRef[]> {
  if (messages.length === 0) return [];
  const client = (await queue.client) as unknown as Redis;
  const pipeline = client.pipeline();
  for (const d of messages) pipeline.exists(queue.toKey(webhookMessageJobId(d.event_id, d.endpoint_id)));
  const results = (await pipeline.exec()) ?? [];
  return messages.filter((_d, i) => results[i]?.[1] === 0);
}
