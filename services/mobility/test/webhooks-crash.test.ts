import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { sendJson, spawnTs, startFakeServer, waitFor } from '@platform/test-kit';
import { createIsolatedContext, insertEvents, newPartnerId, registerEndpoint, type IsolatedContext } from './helpers/webhooks';

const serviceDir = path.resolve(__dirname, '..');
let ctx: IsolatedContext;
beforeAll(async () => {
  ctx = await createIsolatedContext();
});
afterAll(() => ctx.close());

function startWorker(): ChildProcess {
  // A short lock, so the jobs the killed worker held are noticed as stalled and handed out again quickly.
  const child = spawnTs(serviceDir, 'src/worker.ts', { ...ctx.workerEnv, WEBHOOK_JOB_LOCK_MS: '2000' });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

describe('worker crash', () => {
  it('delivers every one of 1,000 events when the worker is killed (SIGKILL) mid-burst and restarted', async () => {
    const server = await startFakeServer((_req, res) => sendJson(res, 200, {}));
    let worker: ChildProcess | undefined;
    try {
      const partner = newPartnerId();
      const endpoint = await registerEndpoint(ctx.app, partner, server.url);
      const events = await insertEvents(ctx.db, partner, Array.from({ length: 1000 }, (_, i) => (i % 2 ? 'delivery.delivered' : 'ride.completed')));
      const received = () => new Set(server.requests.map((r) => r.headers['x-service-event-id'])).size;

      worker = startWorker();
      await waitFor(() => received() >= 100, 'the burst to be under way', { timeoutMs: 60000 });
      worker.kill('SIGKILL');
      await exited(worker);
      const atKill = received();
      expect(atKill).toBeLessThan(1000); // killed in the middle, not after the end

      worker = startWorker();
      await waitFor(() => received() === 1000, 'all 1,000 events after the restart', { timeoutMs: 100000, intervalMs: 100 });
      expect(new Set(server.requests.map((r) => r.headers['x-service-event-id']))).toEqual(new Set(events.map((e) => e.id)));
      const rows = await waitFor(async () => {
        const byStatus = await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).select('status').count<{ status: string; n: string }[]>('* as n').groupBy('status');
        return byStatus.length === 1 && byStatus[0]!.status === 'succeeded' && byStatus;
      }, 'every delivery row succeeded');
      expect(Number(rows[0]!.n)).toBe(1000);
    } finally {
      if (worker && worker.exitCode === null && worker.signalCode === null) {
        worker.kill('SIGTERM');
        await exited(worker);
      }
      await server.close();
    }
  }, 180000);
});
