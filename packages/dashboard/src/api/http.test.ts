import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, problem } from '../test/fake-api';
import { ApiError, request, setAccessToken } from './http';

afterEach(() => setAccessToken(null));

describe('request', () => {
  it('sends same-origin credentials, the Bearer token and JSON, and parses the answer', async () => {
    const api = fakeApi({ 'POST /dashboard/api/certificate/api-keys': { status: 201, body: { id: 'key_1' } } });
    setAccessToken('token-1');
    await expect(request('certificate', '/api-keys', { method: 'POST', body: { name: 'CI' } })).resolves.toEqual({ id: 'key_1' });
    const [sent] = api.requests;
    expect(sent).toMatchObject({ credentials: 'same-origin', body: { name: 'CI' } });
    expect(sent!.headers).toMatchObject({ authorization: 'Bearer token-1', 'content-type': 'application/json' });
  });

  it('sends a CSV body as text/csv, unchanged', async () => {
    const api = fakeApi({ 'POST /dashboard/api/certificate/certificates/batch': { status: 201, body: { data: [] } } });
    await request('certificate', '/certificates/batch', { method: 'POST', body: 'a,b\n1,2\n', contentType: 'text/csv' });
    expect(api.requests[0]).toMatchObject({ body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv' } });
  });

  it('turns a problem+json answer into an ApiError with the detail, code and field errors (details[] or errors[])', async () => {
    fakeApi({
      'POST /dashboard/api/auth/signup': problem(422, 'validation_failed', 'The request is invalid', [{ path: 'password', message: 'must be at least 10 characters' }]),
      'POST /dashboard/api/auth/sessions': { status: 422, body: { detail: 'Bad', code: 'validation_failed', errors: [{ field: 'email', message: 'is not an email' }] } },
    });
    const first = await request('auth', '/signup', { method: 'POST', body: {} }).catch((error: unknown) => error);
    expect(first).toBeInstanceOf(ApiError);
    expect((first as ApiError).problem).toMatchObject({
      status: 422,
      code: 'validation_failed',
      detail: 'The request is invalid',
      fields: [{ path: 'password', message: 'must be at least 10 characters' }],
    });
    const second = (await request('auth', '/sessions', { method: 'POST', body: {} }).catch((error: unknown) => error)) as ApiError;
    expect(second.problem.fields).toEqual([{ path: 'email', message: 'is not an email' }]);
  });

  it('says what failed when the answer is not JSON', async () => {
    fakeApi({ 'GET /dashboard/api/mobility/rides': { status: 502, body: undefined, headers: { 'content-type': 'text/html' } } });
    const error = (await request('mobility', '/rides').catch((failure: unknown) => failure)) as ApiError;
    expect(error.problem).toMatchObject({ status: 502, detail: 'The request failed (HTTP 502).' });
  });
});
