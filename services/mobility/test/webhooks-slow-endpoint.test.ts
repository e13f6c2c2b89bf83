import type { ServerResponse } from 'node:http';
import { sendJson, startFakeServer, waitFor } from '@platform/test-kit';
import { createIsolatedContext, insertEvents, newPartnerId, registerEndpoint, type IsolatedContext } from './helpers/webhooks';

let ctx: IsolatedContext;
beforeAll(async () => {
  // A long timeout, so the hanging endpoint holds its requests for the whole test.
  ctx = await createIsolatedContext({ WEBHOOK_TIMEOUT_MS: '25000', WEBHOOK_CONCURRENCY: '50' });
});
afterAll(() => ctx.close());

describe('a hanging endpoint', () => {
  it('does not delay deliveries to a healthy endpoint', async () => {
    const held: ServerResponse[] = [];
    const hanging = await startFakeServer((_req, res) => void held.push(res)); // never answers
    const healthy = await startFakeServer((_req, res) => sendJson(res, 200, {}));
    try {
      const slowPartner = newPartnerId();
      const fastPartner = newPartnerId();
      await registerEndpoint(ctx.app, slowPartner, hanging.url);
      await registerEndpoint(ctx.app, fastPartner, healthy.url);
      // The hanging endpoint's events are older, so they are first in the queue.
      await insertEvents(ctx.db, slowPartner, Array.from({ length: 60 }, () => 'ride.accepted'));
      const fastEvents = await insertEvents(ctx.db, fastPartner, Array.from({ length: 60 }, () => 'ride.completed'));
      const started = Date.now();
      ctx.startDelivery();

      await waitFor(() => new Set(healthy.requests.map((r) => r.headers['x-service-event-id'])).size === fastEvents.length, 'healthy endpoint served');
      const healthyMs = Date.now() - started;
      const hungAttemptsFinished = await ctx.db('webhook_attempts as a')
        .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .where('d.partner_id', slowPartner)
        .count<{ n: string }[]>('* as n');

      // Both sides measured in one run: every healthy event arrived while the hanging requests were still open
      // (none of them has finished, not even by timing out), and the hanging endpoint never held more than its share.
      console.log(`healthy endpoint: ${fastEvents.length} events in ${healthyMs} ms; hanging endpoint: ${hanging.requests.length} requests open`);
      expect(Number(hungAttemptsFinished[0]!.n)).toBe(0);
      expect(hanging.requests.length).toBeGreaterThan(0);
      expect(hanging.requests.length).toBeLessThanOrEqual(ctx.config.WEBHOOK_ENDPOINT_CONCURRENCY);
      expect(held.every((res) => !res.writableEnded)).toBe(true);
    } finally {
      await hanging.close();
      await healthy.close();
    }
  });
});
