import { Queue } from 'bullmq';
import type { Redis } from '@platform/service-kit/redis';
import { QUEUES } from '../../platform/queues';
import type { JobKind } from './dispatch.types';
import { SearchRetries, type SearchWindow } from './search-retries';

export type { SearchWindow } from './search-retries';

export type DispatchTimerJob =
  | { name: 'offer-expiry'; data: { offerId: string } }
  | { name: 'search-timeout'; data: { kind: JobKind; id: string } }
  | { name: 'search-retry'; data: { kind: JobKind; id: string; search?: SearchWindow } };

/**
 * Dispatch timers in Redis, so a restart of the API loses none; the worker process runs them. Offer expiries and
 * search timeouts are BullMQ delayed jobs (queue `QUEUES.dispatch` under REDIS_PREFIX; deterministic job ids, so
 * scheduling the same timer twice adds one job); search retries, many per waiting job, are entries of one sorted set
 * the worker sweeps in batches (search-retries.ts). Retry jobs an older version put in the queue still run.
 */
export class DispatchTimers {
  readonly queue: Queue;
  readonly retries: SearchRetries;

  /** `connection` carries BullMQ's queue (and its scripts); `redis`, the retries' own commands and pipelines. */
  constructor(connection: Redis, redis: Redis, prefix: string) {
    this.retries = new SearchRetries(redis, prefix);
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

  /** Looks again later when nobody free was in range; one retry per job (scheduling again moves it). */
  async searchRetry(kind: JobKind, id: string, delayMs: number, search?: SearchWindow): Promise<void> {
    await this.retries.schedule(kind, id, delayMs, search);
  }

  /** A new job's search timeout and first retry, the same two timers as `searchTimeout` and `searchRetry`, written together. */
  async startSearch(kind: JobKind, id: string, timeoutMs: number, retryDelayMs: number, search: Omit<SearchWindow, 'until'>): Promise<void> {
    await Promise.all([this.searchTimeout(kind, id, timeoutMs), this.retries.schedule(kind, id, retryDelayMs, { ...search, until: Date.now() + timeoutMs })]);
  }

  /**
   * A job stopped searching (cancelled, accepted, timed out): removes its search timeout and its retry, so neither runs
   * for nothing (a backlog of cancelled rides would otherwise run two timers each); a timer already running finds the
   * job settled, as before.
   */
  async stopSearch(id: string, except: { timeout?: boolean } = {}): Promise<void> {
    await Promise.all([this.retries.remove(id), ...(except.timeout ? [] : [this.queue.remove(`timeout_${id}`)])]);
  }

  /** An accepted offer's expiry timer, which would find the offer answered. */
  async removeOfferExpiry(offerId: string): Promise<void> {
    await this.queue.remove(`expiry_${offerId}`);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The dispatch timers (under `prefix`): offer expiries and search timeouts in BullMQ, search retries in their sorted set. */
export function createDispatchTimers(connection: Redis, redis: Redis, prefix: string): DispatchTimers {
  return new DispatchTimers(connection, redis, prefix);
}
