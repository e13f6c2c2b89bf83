import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { createJsonApp, errorHandler, ForbiddenError, route, UnauthorizedError } from '../src';
import { mountOperations, type Handlers, type OperationGuards } from '../src/mount-operations';

const rideSchema = z.object({ id: z.string(), to: z.string() });
const table = [
  route({
    operationId: 'createRide',
    method: 'post',
    path: '/api/v1/rides',
    security: [{ apiKey: ['rides:write'] }],
    headers: z.object({ 'Idempotency-Key': z.string().max(5).optional() }),
    body: z.object({ to: z.string().min(1) }),
    bodyLimit: '1kb',
    responses: { 201: rideSchema },
  }),
  route({
    operationId: 'getRide',
    method: 'get',
    path: '/api/v1/rides/{id}',
    security: [{ apiKey: ['rides:read'] }],
    params: z.object({ id: z.string().startsWith('ride_') }),
    query: z.object({ expand: z.enum(['driver']).optional() }),
    responses: { 200: rideSchema },
  }),
  route({ operationId: 'listPasses', method: 'get', path: '/api/v1/passes', security: [{ apiKey: ['rides:read'] }], mode: 'live-only', responses: { 200: z.object({}) } }),
  route({ operationId: 'advance', method: 'post', path: '/api/v1/sandbox', security: [{ apiKey: ['rides:read'] }], mode: 'test-only', responses: { 204: null } }),
  route({
    operationId: 'receiveWebhook',
    method: 'post',
    path: '/webhooks/gateway',
    security: [],
    headers: z.object({ 'X-Signature': z.string().regex(/^[0-9a-f]{8}$/) }),
    body: { 'application/json': z.object({ event: z.string() }) },
    rawBody: true,
    responses: { 200: z.object({ signature: z.string().nullable(), bytes: z.int() }), 401: null },
  }),
  route({
    operationId: 'importRides',
    method: 'post',
    path: '/api/v1/imports',
    security: [{ apiKey: ['rides:write'] }],
    body: { 'application/json': z.object({ rows: z.array(z.string()) }), 'text/csv': z.string() },
    responses: { 201: z.object({ got: z.string() }) },
  }),
  route({ operationId: 'literal', method: 'get', path: '/api/v1/rides/latest', security: [], responses: { 200: rideSchema } }),
  route({ operationId: 'removeMember', method: 'delete', path: '/admin/v1/members/{memberId}', security: [{ adminJwt: [] }], roles: ['owner'], audit: 'member.removed', responses: { 204: null } }),
] as const;

/** A key is `scope1,scope2|mode`; the admin is `role`. */
function guards(audited: string[]): OperationGuards {
  return {
    schemes: {
      apiKey: ({ scopes }) => [
        (req, _res, next) => {
          const [granted, mode] = String(req.headers['x-key'] ?? '').split('|');
          if (!granted) return next(new UnauthorizedError('Missing API key', 'missing_api_key'));
          if (!scopes.every((scope) => granted.split(',').includes(scope))) return next(new ForbiddenError('scope', 'insufficient_scope'));
          res_locals(req).mode = mode === 'test' ? 'test' : 'live';
          next();
        },
      ],
      adminJwt: () => [
        (req, _res, next) => {
          req.admin = { sub: 'acc_1', org: 'org_1', role: String(req.headers['x-role']) as 'owner' };
          next();
        },
      ],
    },
    modeOf: (req) => res_locals(req).mode,
    audit: (action) => (req, _res, next) => {
      audited.push(`${action} ${String(req.params.memberId)}`);
      next();
    },
  };
}

function res_locals(req: express.Request): { mode?: 'live' | 'test' } {
  return req as unknown as { mode?: 'live' | 'test' };
}

function appWith(audited: string[] = []) {
  const handlers: Handlers<typeof table> = {
    createRide: ({ body, headers }) => ({ status: 201, body: { id: `ride_${headers['Idempotency-Key'] ?? 'x'}`, to: body.to } }),
    getRide: ({ params, query }) => ({ status: 200, body: { id: params.id, to: query.expand ?? 'none' }, etag: true }),
    listPasses: () => ({ status: 200, body: {} }),
    advance: () => ({ status: 204 }),
    receiveWebhook: ({ headers, body }) => ({ status: 200, body: { signature: (headers['X-Signature'] as string | undefined) ?? null, bytes: (body as unknown as Buffer).length } }),
    importRides: ({ body }) => ({ status: 201, body: { got: typeof body === 'string' ? body : JSON.stringify((body as { rows: string[] }).rows) } }),
    literal: () => ({ status: 200, body: { id: 'ride_latest', to: 'literal' } }),
    removeMember: () => ({ status: 204 }),
  };
  const app = createJsonApp();
  mountOperations(app, table, handlers, guards(audited));
  app.use(errorHandler(pino({ level: 'silent' })));
  return app;
}

describe('mountOperations', () => {
  it('answers from the table: guard with the entry scope, parsed params, query, headers and body, the handler answer with its status and ETag', async () => {
    const app = appWith();
    const created = await request(app).post('/api/v1/rides').set('x-key', 'rides:write').set('Idempotency-Key', 'k1').send({ to: 'Ikeja' }).expect(201);
    expect(created.body).toEqual({ id: 'ride_k1', to: 'Ikeja' });
    const read = await request(app).get('/api/v1/rides/ride_1?expand=driver').set('x-key', 'rides:read').expect(200);
    expect(read.body).toEqual({ id: 'ride_1', to: 'driver' });
    await request(app).get('/api/v1/rides/ride_1?expand=driver').set('x-key', 'rides:read').set('If-None-Match', read.headers.etag as string).expect(304);
    // A control character in a path parameter is the handler's to answer (its id parser's 404), not a 422 about it.
    expect((await request(app).get('/api/v1/rides/ride_%00').set('x-key', 'rides:read').expect(200)).body.id).toBe('ride_\u0000');
    // A literal path answers before the templated one registered earlier.
    expect((await request(app).get('/api/v1/rides/latest').expect(200)).body.to).toBe('literal');
  });

  it('refuses before the handler: 401 without a key, 403 without the scope, 422 on params, query, headers and body, 413 past the entry limit', async () => {
    const app = appWith();
    expect((await request(app).post('/api/v1/rides').send({ to: 'x' }).expect(401)).body.code).toBe('missing_api_key');
    expect((await request(app).post('/api/v1/rides').set('x-key', 'rides:read').send({ to: 'x' }).expect(403)).body.code).toBe('insufficient_scope');
    const body = await request(app).post('/api/v1/rides').set('x-key', 'rides:write').send({ to: '' }).expect(422);
    expect(body.body.details).toEqual([expect.objectContaining({ path: 'to' })]);
    const header = await request(app).post('/api/v1/rides').set('x-key', 'rides:write').set('Idempotency-Key', 'too-long').send({ to: 'x' }).expect(422);
    expect(header.body.details).toEqual([expect.objectContaining({ path: 'Idempotency-Key' })]);
    expect((await request(app).get('/api/v1/rides/nope').set('x-key', 'rides:read').expect(422)).body.details[0].path).toBe('id');
    // A control character in a path parameter is not a text field's 422: the handler sees the id (and answers as for any id).
    expect((await request(app).get('/api/v1/rides/ride_%00').set('x-key', 'rides:read').expect(200)).body.id).toBe('ride_\u0000');
    expect((await request(app).get('/api/v1/rides/ride_1?expand=car').set('x-key', 'rides:read').expect(422)).body.details[0].path).toBe('expand');
    await request(app).post('/api/v1/rides').set('x-key', 'rides:write').send({ to: 'x'.repeat(2000) }).expect(413);
    await request(app).post('/api/v1/rides').set('x-key', 'rides:write').set('content-type', 'text/plain').send('to').expect(415);
  });

  it("leaves a control character in a path parameter to the handler (an id holding a NUL is its 404), and refuses one in the query or body", async () => {
    const app = appWith();
    expect((await request(app).get('/api/v1/rides/ride_%00').set('x-key', 'rides:read').expect(200)).body.id).toBe('ride_\u0000');
    expect((await request(app).get('/api/v1/rides/ride_1?expand=%00').set('x-key', 'rides:read').expect(422)).body.details[0].path).toBe('expand');
    expect((await request(app).post('/api/v1/rides').set('x-key', 'rides:write').send({ to: 'a\u0000' }).expect(422)).body.details[0].path).toBe('to');
  });

  it('hands a raw-body entry its bytes and its declared headers as sent, for the handler to check the signature over them', async () => {
    const app = appWith();
    const unsigned = await request(app).post('/webhooks/gateway').set('Content-Type', 'application/json').send('{"event":"x"}').expect(200);
    expect(unsigned.body).toEqual({ signature: null, bytes: 13 });
    expect((await request(app).post('/webhooks/gateway').set('X-Signature', 'forged!').send('not json').expect(200)).body).toEqual({ signature: 'forged!', bytes: 8 });
  });

  it('reads each media type the entry declares, and names them in the 415 for another', async () => {
    const app = appWith();
    const refused = await request(app).post('/api/v1/imports').set('x-key', 'rides:write').set('Content-Type', 'application/xml').send('<a/>').expect(415);
    expect(refused.body.detail).toBe('Content-Type must be application/json or text/csv');
    expect((await request(app).post('/api/v1/imports').set('x-key', 'rides:write').set('Content-Type', 'text/csv').send('a,b').expect(201)).body).toEqual({ got: 'a,b' });
    expect((await request(app).post('/api/v1/imports').set('x-key', 'rides:write').send({ rows: ['a'] }).expect(201)).body).toEqual({ got: '["a"]' });
  });

  it('keeps the declared mode: a test key is refused a live-only operation and a live key a test-only one', async () => {
    const app = appWith();
    expect((await request(app).get('/api/v1/passes').set('x-key', 'rides:read|test').expect(403)).body.code).toBe('test_mode_not_supported');
    await request(app).get('/api/v1/passes').set('x-key', 'rides:read|live').expect(200);
    expect((await request(app).post('/api/v1/sandbox').set('x-key', 'rides:read|live').expect(403)).body.code).toBe('livemode_key_not_allowed');
    await request(app).post('/api/v1/sandbox').set('x-key', 'rides:read|test').expect(204);
  });

  it('checks the declared roles and records the declared audit action', async () => {
    const audited: string[] = [];
    const app = appWith(audited);
    expect((await request(app).delete('/admin/v1/members/acc_2').set('x-role', 'member').expect(403)).body.code).toBe('insufficient_role');
    await request(app).delete('/admin/v1/members/acc_2').set('x-role', 'owner').expect(204);
    expect(audited).toEqual(['member.removed acc_2']);
  });

  it('fails at start-up for a missing handler, an unknown one, or a scheme the service does not guard', () => {
    const noop = () => undefined;
    const handlers = { createRide: noop, getRide: noop, listPasses: noop, advance: noop, receiveWebhook: noop, importRides: noop, literal: noop, removeMember: noop };
    expect(() => mountOperations(express(), table, { ...handlers, getRide: undefined as never }, guards([]))).toThrow(/no handler for getRide/);
    expect(() => mountOperations(express(), table, { ...handlers, other: noop }, guards([]))).toThrow(/a handler is given for other/);
    expect(() => mountOperations(express(), table, handlers, { ...guards([]), schemes: {} })).toThrow(/names security scheme apiKey/);
    expect(() => mountOperations(express(), table, { getRide: noop }, guards([]), { partial: true })).not.toThrow();
  });
});
