import client from 'prom-client';
import type { Queue } from 'bullmq';
import type { Knex } from '@platform/service-kit/db';

/**
 * Gauges read when Prometheus scrapes `/metrics`: BullMQ queue depth by state, the outbox backlog, webhook deliveries
 * by outcome and dispatch outcomes (rides by status over the last hour). Reading at scrape time keeps every API
 * process and the worker consistent, whichever of them did the work.
 */
export function registerOperationalMetrics(registry: client.Registry, db: Knex, queues: Queue[]): void {
  new client.Gauge({
    name: 'bullmq_queue_jobs',
    help: 'Jobs in each BullMQ queue by state',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        for (const [state, count] of Object.entries(counts)) this.set({ queue: queue.name, state }, count);
      }
    },
  });
  new client.Gauge({
    name: 'outbox_pending_events',
    help: 'Committed outbox events not yet handed to the webhook relay',
    registers: [registry],
    async collect() {
      const row = await db('outbox_events').whereNull('dispatched_at').count({ count: '*' }).first();
      this.set(Number(row?.count ?? 0));
    },
  });
  new client.Gauge({
    name: 'webhook_deliveries',
    help: 'Webhook deliveries by status (pending, succeeded, failed)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = (await db('webhook_deliveries').select('status').count({ count: '*' }).groupBy('status')) as Array<{ status: string; count: string }>;
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });
  new client.Gauge({
    name: 'dispatch_rides_last_hour',
    help: 'Live rides created in the last hour by status: how dispatch is going (accepted, no_drivers_available, …); test-mode rides are never dispatched and not counted',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = (await db('rides').where('livemode', true).andWhere('created_at', '>', db.raw("now() - interval '1 hour'")).select('status').count({ count: '*' }).groupBy('status')) as Array<{
        status: string;
        count: string;
      }>;
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });
}
