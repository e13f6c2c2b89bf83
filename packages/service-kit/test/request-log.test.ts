import { Router } from 'express';
import request from 'supertest';
import { createJsonApp, createLogger, createMetrics, errorHandler, jsonBodies, noteApiKey, NotFoundError, notFoundHandler, UnauthorizedError } from '../src';

const TOKEN = 'ck_live_TopSecretValueThatMustNotBeLogged42';

function appWithLogs() {
  const chunks: string[] = [];
  const logger = createLogger('test-service', 'info', { write: (line: string) => void chunks.push(line) });
  const app = createJsonApp({ logger });
  app.use(jsonBodies());
  app.get('/api/v1/things/:id', (_req, res) => {
    noteApiKey(res, 'key_123');
    res.json({ ok: true });
  });
  app.post('/api/v1/deliveries/:id/deliver', () => {
    throw new UnauthorizedError('Invalid or revoked API key', 'invalid_api_key');
  });
  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  const lines = () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { app, lines, text: () => chunks.join('') };
}

describe('request log lines', () => {
  it('writes one line per request with request id, method, route pattern, status, duration and API key id', async () => {
    const { app, lines, text } = appWithLogs();
    await request(app).get('/api/v1/things/thing_9?q=1').set('Authorization', `Bearer ${TOKEN}`).set('X-Request-Id', 'req-1').expect(200);
    const logged = lines().filter((line) => line.msg === 'request');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      service: 'test-service',
      request_id: 'req-1',
      method: 'GET',
      route: '/api/v1/things/:id',
      status: 200,
      api_key_id: 'key_123',
    });
    expect(typeof logged[0]!.duration_ms).toBe('number');
    expect(text()).not.toContain(TOKEN);
    expect(text()).not.toContain('thing_9');
  });

  it('logs failed and unmatched requests without the token or the body', async () => {
    const { app, lines, text } = appWithLogs();
    await request(app).post('/api/v1/deliveries/dlv_1/deliver').set('X-API-KEY', TOKEN).send({ pin: '987654' }).expect(401);
    await request(app).get('/nowhere').expect(404);
    const logged = lines().filter((line) => line.msg === 'request');
    expect(logged.map((line) => [line.method, line.route, line.status])).toEqual([
      ['POST', '/api/v1/deliveries/:id/deliver', 401],
      ['GET', 'unmatched', 404],
    ]);
    expect(logged[0]).not.toHaveProperty('api_key_id');
    expect(text()).not.toContain(TOKEN);
    expect(text()).not.toContain('987654');
  });

  it('names the full route pattern of an error thrown inside a mounted router, in the log line and the metric', async () => {
    const chunks: string[] = [];
    const logger = createLogger('test-service', 'info', { write: (line: string) => void chunks.push(line) });
    const metrics = createMetrics('test-service');
    const app = createJsonApp({ logger, metrics });
    const rides = Router();
    rides.get('/:id', async () => {
      throw new NotFoundError('Ride not found');
    });
    app.use('/api/v1/rides', rides);
    app.use(errorHandler(logger));
    await request(app).get('/api/v1/rides/ride_1').expect(404);
    const line = chunks.join('').split('\n').filter(Boolean).map((text) => JSON.parse(text) as Record<string, unknown>).find((l) => l.msg === 'request');
    expect(line).toMatchObject({ route: '/api/v1/rides/:id', status: 404 });
    expect(await metrics.registry.metrics()).toContain('route="/api/v1/rides/:id",status="404"');
  });
});
