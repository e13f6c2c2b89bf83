import request from 'supertest';
import type { ServerResponse } from 'node:http';
import { createLogger } from '@platform/service-kit/logger';
import { sendJson, startFakeServer, waitFor, waitForDrained } from '@platform/test-kit';
import type { WebhookDispatch } from '../src/features/webhook-dispatch/webhook-worker';
import { createIsolatedContext, insertEvents, newPartnerId, PARTNER_HEADER, registerEndpoint, type IsolatedContext } from './helpers/webhooks';

/**
 * The README's quick start (`pnpm platform webhooks listen --exit-after 1`) deletes its endpoint as soon as it has
 * answered: the worker then finishes a message whose endpoint, message row and attempt log are gone. That is not an
 * error: the job completes, one info line says what happened, nothing is logged at error level, no SQL anywhere.
 */
let ctx: IsolatedContext;
let delivery: WebhookDispatch;
const chunks: string[] = [];
const outcomes: { jobId: string | undefined; state: 'completed' | 'failed'; result: unknown }[] = [];
const servers: { close(): Promise<void> }[] = [];

const lines = () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  ctx = await createIsolatedContext({ WEBHOOK_MAX_ATTEMPTS: '5', WEBHOOK_BACKOFF_MS: '50' });
  delivery = ctx.startDelivery(createLogger('mobility-worker', 'info', { write: (line: string) => void chunks.push(line) }));
  delivery.worker.on('completed', (job, result) => void outcomes.push({ jobId: job.id, state: 'completed', result }));
  delivery.worker.on('failed', (job, err) => void outcomes.push({ jobId: job?.id, state: 'failed', result: err.message }));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

/** A receiver that deletes its own endpoint through the API, then answers `status`. */
async function selfDeletingReceiver(partner: string, status: number) {
  let endpointId = '';
  const server = await startFakeServer((_req, res: ServerResponse) => {
    void request(ctx.app)
      .delete(`/api/v1/webhooks/${endpointId}`)
      .set(PARTNER_HEADER, partner)
      .then((deleted) => sendJson(res, deleted.status === 204 ? status : 599, { received: true }));
  });
  servers.push(server);
  const endpoint = await registerEndpoint(ctx.app, partner, server.url);
  endpointId = endpoint.id;
  return { server, endpoint };
}

describe('a webhook endpoint deleted while its message is in flight', () => {
  it.each([
    [200, 'after answering 2xx (the quick start)'],
    [503, 'after answering 5xx (no retry is scheduled)'],
  ])('answer %i %s: the job completes with one info line, no error line, no SQL, nothing left behind', async (status) => {
    const partner = newPartnerId();
    const { server, endpoint } = await selfDeletingReceiver(partner, status);
    const [event] = await insertEvents(ctx.db, partner, ['ride.completed']);
    const jobId = `${event!.id}.${endpoint.id}`;

    await waitFor(() => outcomes.some((o) => o.jobId === jobId), 'the job to finish');
    await waitForDrained(ctx.queue); // a retry would still be waiting in the queue
    expect(server.requests).toHaveLength(1);
    // Terminal state: the job completed (not failed, nothing to retry); the message went with its endpoint.
    expect(outcomes.filter((o) => o.jobId === jobId)).toEqual([{ jobId, state: 'completed', result: 'skipped' }]);
    await request(ctx.app).get(`/api/v1/webhooks/${endpoint.id}/deliveries`).set(PARTNER_HEADER, partner).expect(404);
    expect(await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).count({ n: '*' })).toEqual([{ n: '0' }]);
    expect(await ctx.db('webhook_attempts').where('delivery_id', 'like', 'whd_%').whereNotExists(ctx.db('webhook_deliveries').whereRaw('webhook_deliveries.id = webhook_attempts.delivery_id'))).toEqual([]);

    const aboutIt = lines().filter((line) => line.endpointId === endpoint.id);
    expect(aboutIt).toEqual([
      expect.objectContaining({ level: 30, msg: 'webhook endpoint deleted while its message was in flight: the message went with it, nothing to record', eventId: event!.id }),
    ]);
    expect(lines().filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(chunks.join('').toLowerCase()).not.toContain('insert into');
  });
});
