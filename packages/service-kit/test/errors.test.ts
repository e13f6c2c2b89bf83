import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { errorHandler, notFoundHandler } from '../src/error-handler';
import { ConflictError } from '../src/errors';
import { jsonBodies } from '../src/json-app';
import { parseOrThrow } from '../src/validation';

function appWith(route: express.RequestHandler) {
  const app = express();
  app.use(jsonBodies());
  app.post('/thing', route);
  app.get('/thing', route);
  app.use(notFoundHandler());
  app.use(errorHandler(pino({ level: 'silent' })));
  return app;
}

describe('error model', () => {
  it('turns a typed error into its status and JSON body', async () => {
    const app = appWith(() => {
      throw new ConflictError('Ride is already completed', 'invalid_state');
    });
    const res = await request(app).get('/thing').expect(409);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual({
      type: 'https://docs.partner-platform.example/errors/invalid_state',
      title: 'Conflict',
      status: 409,
      detail: 'Ride is already completed',
      error: 'Ride is already completed',
      code: 'invalid_state',
    });
  });

  it('turns zod failures into a 422 with one detail per field path', async () => {
    const app = appWith((req, res) => {
      res.json(parseOrThrow(z.object({ pickup: z.object({ lat: z.number().min(-90).max(90) }) }), req.body));
    });
    const res = await request(app).post('/thing').send({ pickup: { lat: 91 } }).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details).toEqual([{ path: 'pickup.lat', message: 'must be at most 90' }]);
  });

  it('answers a connection-pool timeout with a retryable 503, not a 500', async () => {
    const app = appWith(() => {
      const error = new Error('Knex: Timeout acquiring a connection. The pool is probably full.');
      error.name = 'KnexTimeoutError';
      throw error;
    });
    const res = await request(app).get('/thing').expect(503);
    expect(res.body).toMatchObject({ error: 'Database is busy, retry shortly', code: 'database_busy', status: 503 });
    expect(res.headers['retry-after']).toBe('1');
  });

  it('hides unexpected errors behind a plain 500 JSON without a stack trace', async () => {
    const app = appWith(() => {
      throw new Error('database password is hunter2');
    });
    const res = await request(app).get('/thing').expect(500);
    expect(res.body).toMatchObject({ error: 'Internal server error', code: 'internal_error' });
    expect(res.text).not.toContain('hunter2');
  });

  it('accepts a POST without a body and without a content type', async () => {
    const app = appWith((_req, res) => {
      res.json({ ok: true });
    });
    await request(app).post('/thing').expect(200, { ok: true });
  });
});
