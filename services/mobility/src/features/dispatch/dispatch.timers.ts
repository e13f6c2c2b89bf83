import { Queue } from 'bullmq';
import type { Redis } from '@platform/service-kit/redis';
import { QUEUES } from '../../platform/queues';
import type { DispatchJob, JobKind } from './dispatch.types';

/**
 * What a retry knows of its job besides kind and id (timers scheduled by older versions
 * have only kind and id): where and whom it searches, and until when (ms since the epoch, the search timeout), so a
 * retry with nobody in range reschedules itself without reading Postgres.
 */
export type SearchWindow = Pick<DispatchJob, 'partnerId' | 'fleetKind' | 'tier' | 'pickup'> & { until: number };

export type DispatchTimerJob =
  | { name: 'offer-expiry'; data: { offerId: string } }
  | { name: 'search-timeout'; data: { kind: JobKind; id: string } }
  | { name: 'search-retry'; data: { kind: JobKind; id: string; search?: SearchWindow } };

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
  async searchRetry(kind: JobKind, id: string, delayMs: number, search?: SearchWindow): Promise<void> {
    await this.queue.add('search-retry', { kind, id, ...(search && { search }) }, { jobId: retryJobId(id, retrySlot(Date.now(), delayMs)), delay: delayMs });
  }

  /** A new job's search timeout and first retry, the same two jobs as `searchTimeout` and `searchRetry`, in one round trip. */
  async startSearch(kind: JobKind, id: string, timeoutMs: number, retryDelayMs: number, search: Omit<SearchWindow, 'until'>): Promise<void> {
    const now = Date.now();
    await this.queue.addBulk([
      { name: 'search-timeout', data: { kind, id }, opts: { jobId: `timeout_${id}`, delay: timeoutMs } },
      { name: 'search-retry', data: { kind, id, search: { ...search, until: now + timeoutMs } }, opts: { jobId: retryJobId(id, retrySlot(now, retryDelayMs)), delay: retryDelayMs } },
    ]);
  }

  /**
   * A job stopped searching (cancelled, accepted, timed out): removes its search timeout and the retries it may still
   * have waiting, so none of them runs for nothing (a backlog of cancelled rides would otherwise run two timers each).
   * A retry is one of the slots around its creation (scheduled then, never run: a worker that was down) or around now
   * (scheduled by the last retry); a timer already running is not removed and finds the job settled, as before.
   */
  async stopSearch(id: string, createdAt: Date, retryDelayMs: number, except: { timeout?: boolean } = {}): Promise<void> {
    const created = retrySlot(createdAt.getTime(), retryDelayMs);
    const now = Math.floor(Date.now() / retryDelayMs);
    const slots = new Set([created, created + 1, now - 1, now, now + 1]);
    const ids = [...[...slots].map((slot) => retryJobId(id, slot)), ...(except.timeout ? [] : [`timeout_${id}`])];
    await Promise.all(ids.map((jobId) => this.queue.remove(jobId)));
  }

  /** An accepted offer's expiry timer, which would find the offer answered. */
  async removeOfferExpiry(offerId: string): Promise<void> {
    await this.queue.remove(`expiry_${offerId}`);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** The dispatch timers' queue (under `prefix`): offer expiries and search retries. */
export function createDispatchTimers(connection: Redis, prefix: string): DispatchTimers {
  return new DispatchTimers(connection, prefix);
}

/** The interval a retry scheduled at `at` (ms) fires in; its job id holds it, so a retry per job per interval. */
function retrySlot(at: number, delayMs: number): number {
  return Math.floor((at + delayMs) / delayMs);
}

function retryJobId(id: string, slot: number): string {
  return `retry_${id}_${slot}`;
}
