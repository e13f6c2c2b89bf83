import { Worker, type Job } from 'bullmq';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import { QUEUES } from '../../platform/queues';
import type { Dispatcher } from './dispatch.service';
import type { DispatchTimerJob } from './dispatch.timers';

/** Runs the dispatch timers (offer expiry, search retry, search timeout) in the worker process. */
export function createDispatchWorker(dispatcher: Dispatcher, connection: Redis, prefix: string, logger: Logger): Worker {
  const worker = new Worker(
    QUEUES.dispatch,
    async (job: Job) => {
      const timer = { name: job.name, data: job.data } as DispatchTimerJob;
      switch (timer.name) {
        case 'offer-expiry':
          return dispatcher.expireOffer(timer.data.offerId);
        case 'search-retry':
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
