import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('mobility health', () => {
  it('is ready when Postgres and Redis answer', async () => {
    await request(ctx.app).get('/healthz').expect(200, { status: 'ok' });
    const res = await request(ctx.app).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'up' } });
  });

  it('answers unknown routes with JSON 404', async () => {
    const res = await request(ctx.app).get('/api/v1/unknown').expect(404);
    expect(res.body.code).toBe('route_not_found');
  });
});

describe('mobility metrics', () => {
  it('exposes request latency, queue depth, the outbox backlog, deliveries by outcome and dispatch outcomes', async () => {
    await request(ctx.app).get('/healthz').expect(200);
    const res = await request(ctx.app).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('http_request_duration_seconds_bucket');
    expect(res.text).toMatch(/bullmq_queue_jobs\{[^}]*queue="webhook-deliveries"[^}]*state="waiting"[^}]*\} \d+/);
    expect(res.text).toMatch(/bullmq_queue_jobs\{[^}]*queue="dispatch-timers"/);
    expect(res.text).toMatch(/^outbox_pending_events(\{[^}]*\})? \d+$/m);
    expect(res.text).toContain('# TYPE webhook_deliveries gauge');
    expect(res.text).toContain('# TYPE dispatch_rides_last_hour gauge');
  });
});
