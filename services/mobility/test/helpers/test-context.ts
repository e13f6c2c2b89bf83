import type { Worker } from 'bullmq';
import type { Express } from 'express';
import type { Knex } from '@platform/service-kit/db';
import type { Redis } from '@platform/service-kit/redis';
import type { MobilityConfig } from '../../src/config';
import type { MobilityServices } from '../../src/services';

/** One test file's app on this run's database and Redis prefix (built by `createTestContext` in context.ts; factories take it). */
export interface TestContext {
  app: Express;
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  services: MobilityServices;
  /** Starts the dispatch timer worker (offer expiry, retries, search timeout) as the worker process would. */
  startDispatchWorker(): Worker;
  close(): Promise<void>;
}
