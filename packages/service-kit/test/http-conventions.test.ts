import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { errorHandler, notFoundHandler } from '../src/error-handler';
import { UnauthorizedError } from '../src/errors';
import { etagOf, sendJsonWithEtag } from '../src/etag';
import { jsonBodies } from '../src/json-app';
import { knownRoutesOf, methodNotAllowedHandler } from '../src/method-not-allowed';
import { partnerMessage } from '../src/partner-messages';
import { parseOrThrow } from '../src/validation';

const PATHS = {
  '/things': { get: {}, post: {} },
  '/things/{id}': { get: {}, delete: {} },
  '/things/{id}/cancel': { post: {} },
};

function app() {
  const app = express();
  app.use(jsonBodies());
  app.get('/things', (_req, res) => {
    res.json({ data: [] });
  });
  app.post('/things', (req, res) => {
    res.status(201).json(parseOrThrow(z.object({ name: z.string().max(5), size: z.enum(['s', 'm']) }).strict(), req.body));
  });
  app.get('/things/:id', (req, res) => {
    sendJsonWithEtag(req, res, { id: req.params.id, name: 'kettle' });
  });
  app.get('/private', () => {
    throw new UnauthorizedError('Invalid or expired token', 'invalid_token');
  });
  app.use(methodNotAllowedHandler(knownRoutesOf(PATHS)));
  app.use(notFoundHandler());
  app.use(errorHandler(pino({ level: 'silent' })));
  return app;
}

describe('Problem Details', () => {
  it('answers an unknown route as application/problem+json with type, title, status and detail, keeping error and code', async () => {
    const res = await request(app()).get('/nowhere').expect(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toEqual({
      type: 'https://docs.partner-platform.example/errors/route_not_found',
      title: 'Not Found',
      status: 404,
      detail: 'Route not found',
      error: 'Route not found',
      code: 'route_not_found',
    });
  });

  it('writes validation messages for partners, not in the validator’s words', async () => {
    const res = await request(app()).post('/things').send({ name: 'a very long name', size: 'xl', colour: 'red' }).expect(422);
    expect(res.body).toMatchObject({ status: 422, code: 'validation_failed', type: 'https://docs.partner-platform.example/errors/validation_failed' });
    expect(res.body.details).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'must be at most 5 characters long' },
        { path: 'size', message: 'must be one of "s", "m"' },
        { path: '(body)', message: 'unknown field "colour"; remove it' },
      ]),
    );
  });

  it('rewrites the validator’s common messages and leaves the routes’ own ones alone', () => {
    expect(partnerMessage('Invalid input: expected number, received string')).toBe('must be a number');
    expect(partnerMessage('Invalid input: expected object, received undefined')).toBe('is required');
    expect(partnerMessage('Too small: expected number to be >=-90')).toBe('must be at least -90');
    expect(partnerMessage('estimate has expired; request a new one')).toBe('estimate has expired; request a new one');
  });

  it('challenges a bearer 401 with WWW-Authenticate', async () => {
    const res = await request(app()).get('/private').expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(res.body).toMatchObject({ code: 'invalid_token', status: 401, title: 'Unauthorized' });
  });
});

describe('405 Method Not Allowed', () => {
  it('answers a known path with another method as 405 naming the allowed methods in Allow', async () => {
    const res = await request(app()).put('/things/thg_1').send({}).expect(405);
    expect(res.headers.allow).toBe('GET, DELETE, HEAD');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
    const cancel = await request(app()).get('/things/thg_1/cancel').expect(405);
    expect(cancel.headers.allow).toBe('POST');
  });

  it('keeps an unknown path a 404', async () => {
    const res = await request(app()).put('/things/thg_1/unknown').expect(404);
    expect(res.body.code).toBe('route_not_found');
  });
});

describe('ETag on a single object', () => {
  it('tags the JSON answer and answers a matching If-None-Match with a 304 without a body', async () => {
    const first = await request(app()).get('/things/thg_1').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toBe(etagOf(first.text));
    const again = await request(app()).get('/things/thg_1').set('If-None-Match', `"other", W/${etag}`).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
  });

  it('answers the full object when the tag is stale or another object', async () => {
    const first = await request(app()).get('/things/thg_1').expect(200);
    const other = await request(app()).get('/things/thg_2').set('If-None-Match', first.headers.etag as string).expect(200);
    expect(other.body).toEqual({ id: 'thg_2', name: 'kettle' });
    expect(other.headers.etag).not.toBe(first.headers.etag);
  });
});
