import { Queue } from 'bullmq';
import type { Redis } from '@platform/service-kit';
import { QUEUES } from '../../platform/queues';
import type { JobKind } from './dispatch.types';

export type DispatchTimerJob =
  | { name: 'offer-expiry'; data: { offerId: string } }
  | { name: 'search-timeout'; data: { kind: JobKind; id: string } }
  | { name: 'search-retry'; data: { kind: JobKind; id: string } };

/**
 * Dispatch timers as BullMQ delayed jobs (queue `QUEUES.dispatch` under REDIS_PREFIX), so a restart of the API loses
 * none; the worker process runs them. Job ids are deterministic, so scheduling the same timer twice adds one job.
 */
export class DispatchTimers {
  readonly queue: Queue;

  constructor(connection: Redis, prefix: string) {
    this.queue = new Queue(QUEUES.dispatch, {
      connection,
      prefix,
      defaultJobOptions: { removeOnComplete: 1000, removeOnFail: 5000, attempts: 5, backoff: { type: 'exponential', delay: 500 } },
    });
  }

  async offerExpiry(offerId: string, delayMs: number): Promise<void> {
    await this.queue.add('offer-expiry', { offerId }, { jobId: `expiry_${offerId}`, delay: delayMs });
  }

  async searchTimeout(kind: JobKind, id: string, delayMs: number): Promise<void> {
    await this.queue.add('search-timeout', { kind, id }, { jobId: `timeout_${id}`, delay: delayMs });
  }

  /** Looks again later when nobody free was in range; one retry per job per interval. */
  async searchRetry(kind: JobKind, id: string, delayMs: number): Promise<void> {
    const slot = Math.floor((Date.now() + delayMs) / delayMs);
    await this.queue.add('search-retry', { kind, id }, { jobId: `retry_${id}_${slot}`, delay: delayMs });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The dispatch timers' queue (under `prefix`): offer expiries and search retries. */
export function createDispatchTimers(connection: Redis, prefix: string): DispatchTimers {
  return new DispatchTimers(connection, prefix);
}
