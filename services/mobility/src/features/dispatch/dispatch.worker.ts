import { Worker, type Job } from 'bullmq';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import { QUEUES } from '../../platform/queues';
import type { Dispatcher } from './dispatch.service';
import type { DispatchTimerJob } from './dispatch.timers';
import type { SearchRetries } from './search-retries';

/** Runs the dispatch timers (offer expiry, search retry, search timeout) in the worker process. */
export function createDispatchWorker(dispatcher: Dispatcher, connection: Redis, prefix: string, logger: Logger): Worker {
  const worker = new Worker(
    QUEUES.dispatch,
    async (job: Job) => {
      const timer = { name: job.name, data: job.data } as DispatchTimerJob;
      switch (timer.name) {
        case 'offer-expiry':
          return dispatcher.expireOffer(timer.data.offerId);
        case 'search-retry': // scheduled as a job of its own by an older version: search-retries.ts now
          return void (await dispatcher.retrySearch(timer.data.kind, timer.data.id, timer.data.search));
        case 'search-timeout':
          return dispatcher.timeOut(timer.data.kind, timer.data.id);
        default:
          logger.warn({ name: job.name }, 'unknown dispatch timer');
      }
    },
    { connection, prefix, concurrency: 20 },
  );
  worker.on('failed', (job, err) => logger.warn({ err, job: job?.name, jobId: job?.id }, 'dispatch timer failed'));
  return worker;
}

export interface SearchRetrySweeperOptions {
  /** How often the sweeper looks for due retries when the last sweep found fewer than a batch (ms). */
  intervalMs?: number;
  /** Retries taken per sweep. */
  batchSize?: number;
  /** Retries looked at concurrently within a sweep. */
  concurrency?: number;
  /** How long a taken retry is held: a worker killed mid-look leaves it due again after this (ms). */
  leaseMs?: number;
}

/**
 * Runs the search retries (search-retries.ts) in the worker process: takes the due ones in batches, looks again for
 * each (`Dispatcher.retrySearch`, which schedules its next look when it is still waiting), then drops the ones nobody
 * rescheduled. Several workers share the set: each due retry goes to one of them.
 */
export function startSearchRetrySweeper(dispatcher: Pick<Dispatcher, 'retrySearch'>, retries: SearchRetries, logger: Logger, options: SearchRetrySweeperOptions = {}) {
  const { intervalMs = 200, batchSize = 500, concurrency = 20, leaseMs = 30_000 } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function sweep(): Promise<number> {
    const { retries: due, leaseUntil } = await retries.takeDue(batchSize, leaseMs);
    const failed = new Set<string>();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, due.length) }, async () => {
        while (next < due.length) {
          const retry = due[next++]!;
          try {
            await dispatcher.retrySearch(retry.kind, retry.id, retry.search);
          } catch (err) {
            // Left with its lease (not settled below): it is due again once the lease ends.
            failed.add(retry.id);
            logger.warn({ err, id: retry.id }, 'dispatch search retry failed');
          }
        }
      }),
    );
    await retries.settle(
      due.filter((retry) => !failed.has(retry.id)).map((retry) => retry.id),
      leaseUntil,
    );
    return due.length;
  }

  const loop = async () => {
    let taken = 0;
    try {
      taken = await sweep();
    } catch (err) {
      logger.warn({ err }, 'dispatch search retry sweep failed');
    }
    if (!stopped) timer = setTimeout(() => (running = loop()), taken >= batchSize ? 0 : intervalMs);
  };
  running = loop();
  return {
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export type SearchRetrySweeper = ReturnType<typeof startSearchRetrySweeper>;
