import request from 'supertest';
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { sendJson, startFakeServer, type RecordedRequest } from '@platform/test-kit';
import { verifyServiceSignature } from '@platform/webhook-signature';
import { createIsolatedContext, insertEvents, newPartnerId, PARTNER_HEADER, registerEndpoint, type IsolatedContext } from './helpers/webhooks';
import { waitFor } from '@platform/test-kit';

let ctx: IsolatedContext;
const servers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  ctx = await createIsolatedContext({ WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_BACKOFF_MS: '50', WEBHOOK_RECOVER_MIN_INTERVAL_S: '0' }) // recovers back to back; spacing is tested in webhooks-recover.test.ts;
  ctx.startDelivery();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await ctx.close();
});

async function receiver(status = 200) {
  const server = await startFakeServer((_req: RecordedRequest, res: ServerResponse) => sendJson(res, status, { received: status < 300 }));
  servers.push(server);
  return server;
}

const api = (partner: string) => ({
  patch: (path: string, body: unknown) => request(ctx.app).patch(path).set(PARTNER_HEADER, partner).send(body as object),
  post: (path: string, body?: unknown) => request(ctx.app).post(path).set(PARTNER_HEADER, partner).send(body as object),
  get: (path: string) => request(ctx.app).get(path).set(PARTNER_HEADER, partner),
});

function headersOf(req: RecordedRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
}

describe('PATCH /api/v1/webhooks/{id}', () => {
  it('changes url, events and description, and only those', async () => {
    const partner = newPartnerId();
    const [first, second] = [await receiver(), await receiver()];
    const endpoint = await registerEndpoint(ctx.app, partner, `${first.url}/hooks`);
    const res = await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { url: `${second.url}/new`, events: ['ride.completed'], description: 'moved' }).expect(200);
    expect(res.body).toMatchObject({ id: endpoint.id, url: `${second.url}/new`, events: ['ride.completed'], description: 'moved', status: 'enabled' });
    expect(res.body.secret).toBeUndefined();

    await insertEvents(ctx.db, partner, ['ride.cancelled', 'ride.completed']);
    await waitFor(() => second.requests.length >= 1, 'the completed event at the new URL');
    expect(second.requests.map((r) => JSON.parse(r.body.toString()).type)).toEqual(['ride.completed']);
    expect(first.requests).toHaveLength(0);
  });

  it('refuses bad input with 422 and changes nothing; another partner gets 404', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, `${(await receiver()).url}/x`);
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, {}).expect(422);
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { events: ['ride.teleported'] }).expect(422);
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { url: 'ftp://example.com/x' }).expect(422);
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { secret: 'whsec_mine' }).expect(422);
    await api(newPartnerId()).patch(`/api/v1/webhooks/${endpoint.id}`, { description: 'theirs' }).expect(404);
    await api(partner).patch('/api/v1/webhooks/not-an-id', { description: 'x' }).expect(404);
    const row = await ctx.db('webhook_endpoints').where({ id: endpoint.id }).first();
    expect(row).toMatchObject({ url: endpoint.url, description: null, status: 'enabled' });
  });

  it('disables and re-enables; re-enabling onto a URL another enabled endpoint holds is 409', async () => {
    const partner = newPartnerId();
    const url = `${(await receiver()).url}/same`;
    const endpoint = await registerEndpoint(ctx.app, partner, url);
    const off = await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: false }).expect(200);
    expect(off.body).toMatchObject({ status: 'disabled', disabled_reason: 'Disabled by the partner' });
    const other = await registerEndpoint(ctx.app, partner, url); // allowed: the first is disabled
    const conflict = await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: true }).expect(409);
    expect(conflict.body.code).toBe('duplicate_webhook_url');
    await request(ctx.app).delete(`/api/v1/webhooks/${other.id}`).set(PARTNER_HEADER, partner).expect(204);
    const on = await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: true }).expect(200);
    expect(on.body).toMatchObject({ status: 'enabled', disabled_reason: null });
  });
});

describe('POST /api/v1/webhooks/{id}/rotate-secret', () => {
  it('shows the new secret once; for 24 h both secrets verify with the standardwebhooks package, X-Service-Signature uses the new one', async () => {
    const partner = newPartnerId();
    const server = await receiver();
    const endpoint = await registerEndpoint(ctx.app, partner, `${server.url}/rotate`);
    const rotated = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const expiresIn = Date.parse(rotated.body.previous_secret_expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3600 * 1000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600 * 1000);
    const listed = await api(partner).get('/api/v1/webhooks').expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(rotated.body.secret);

    await insertEvents(ctx.db, partner, ['ride.accepted']);
    const delivered = await waitFor(() => server.requests[0], 'the delivery after rotation');
    const headers = headersOf(delivered);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [rotated.body.secret as string, endpoint.secret]) {
      expect(new Webhook(secret).verify(delivered.body.toString(), headers)).toMatchObject({ type: 'ride.accepted' });
    }
    expect(verifyServiceSignature(delivered.body, headers['x-service-signature'], rotated.body.secret)).toBe(true);
    expect(verifyServiceSignature(delivered.body, headers['x-service-signature'], endpoint.secret)).toBe(false);
  });

  it('signs with the new secret alone once the overlap has ended', async () => {
    const partner = newPartnerId();
    const server = await receiver();
    const endpoint = await registerEndpoint(ctx.app, partner, `${server.url}/expired`);
    const rotated = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`).expect(200);
    await ctx.db('webhook_endpoints').where({ id: endpoint.id }).update({ previous_secret_expires_at: ctx.db.raw("now() - interval '1 second'") });
    await insertEvents(ctx.db, partner, ['ride.accepted']);
    const delivered = await waitFor(() => server.requests[0], 'the delivery after the overlap');
    const headers = headersOf(delivered);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.body.secret).verify(delivered.body.toString(), headers)).toBeTruthy();
    expect(() => new Webhook(endpoint.secret).verify(delivered.body.toString(), headers)).toThrow();
  });
});

describe('POST /api/v1/webhooks/{id}/rotate-secret with expire_previous_now', () => {
  it('stops the previous secret signing at once: the next delivery carries the new signature only', async () => {
    const partner = newPartnerId();
    const server = await receiver();
    const endpoint = await registerEndpoint(ctx.app, partner, `${server.url}/expire-now`);
    const rotated = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, { expire_previous_now: true }).expect(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.previous_secret_expires_at).toBeNull();

    await insertEvents(ctx.db, partner, ['ride.accepted']);
    const delivered = await waitFor(() => server.requests[0], 'the delivery after an expire-now rotation');
    const headers = headersOf(delivered);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(new Webhook(rotated.body.secret).verify(delivered.body.toString(), headers)).toBeTruthy();
    expect(() => new Webhook(endpoint.secret).verify(delivered.body.toString(), headers)).toThrow();
  });

  it('refuses a body that is not {expire_previous_now: boolean} with 422 and keeps the secret', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, `${(await receiver()).url}/bad-rotate`);
    await api(partner).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, { expire_previous_now: 'yes' }).expect(422);
    await api(partner).post(`/api/v1/webhooks/${endpoint.id}/rotate-secret`, { expire_now: true }).expect(422);
    const row = await ctx.db('webhook_endpoints').where({ id: endpoint.id }).first();
    expect(row.previous_secret).toBeNull();
  });
});

describe('POST /api/v1/webhooks/{id}/test', () => {
  it('sends a signed webhook.test event to that endpoint alone', async () => {
    const partner = newPartnerId();
    const [target, bystander] = [await receiver(), await receiver()];
    const endpoint = await registerEndpoint(ctx.app, partner, `${target.url}/t`);
    await registerEndpoint(ctx.app, partner, `${bystander.url}/b`);
    const res = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/test`).expect(202);
    expect(res.body).toMatchObject({ endpoint_id: endpoint.id, event_type: 'webhook.test', status: 'pending' });
    const delivered = await waitFor(() => target.requests[0], 'the test event');
    const body = new Webhook(endpoint.secret).verify(delivered.body.toString(), headersOf(delivered)) as { id: string; type: string; data: { endpoint_id: string } };
    expect(body).toMatchObject({ id: res.body.event_id, type: 'webhook.test', data: { endpoint_id: endpoint.id } });
    await waitFor(async () => (await ctx.db('webhook_deliveries').where({ id: res.body.id }).first()).status === 'succeeded', 'the test delivery recorded');
    expect(bystander.requests).toHaveLength(0);
  });

  it('is 409 on a disabled endpoint and 404 for another partner', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, `${(await receiver()).url}/d`);
    await api(newPartnerId()).post(`/api/v1/webhooks/${endpoint.id}/test`).expect(404);
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: false }).expect(200);
    const res = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/test`).expect(409);
    expect(res.body.code).toBe('endpoint_disabled');
    expect(await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });
});

describe('disabling an endpoint that has failed for 5 days', () => {
  it('disables it after a failed attempt, tells the partner\'s other enabled endpoints, and PATCH enabled: true brings it back', async () => {
    const partner = newPartnerId();
    const [failing, healthy] = [await receiver(503), await receiver()];
    const endpoint = await registerEndpoint(ctx.app, partner, `${failing.url}/down`, ['ride.accepted']);
    const other = await registerEndpoint(ctx.app, partner, `${healthy.url}/up`, ['ride.completed']);
    await ctx.db('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: ctx.db.raw("now() - interval '5 days 1 minute'") });

    await insertEvents(ctx.db, partner, ['ride.accepted']);
    const notice = await waitFor(() => healthy.requests.find((r) => JSON.parse(r.body.toString()).type === 'webhook_endpoint.disabled'), 'the disabled notice');
    const event = new Webhook(other.secret).verify(notice.body.toString(), headersOf(notice)) as { data: Record<string, unknown> };
    expect(event.data).toMatchObject({ id: endpoint.id, status: 'disabled', disabled_reason: 'Every delivery attempt failed for 5 days' });
    const listed = await api(partner).get('/api/v1/webhooks').expect(200);
    expect(listed.body.data.find((e: { id: string }) => e.id === endpoint.id)).toMatchObject({ status: 'disabled' });

    const on = await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: true }).expect(200);
    expect(on.body).toMatchObject({ status: 'enabled', disabled_reason: null });
    expect((await ctx.db('webhook_endpoints').where({ id: endpoint.id }).first()).failing_since).toBeNull();
  });

  it('sends webhook_endpoint.disabled to the other endpoints when a 410 disables one too', async () => {
    const partner = newPartnerId();
    const [gone, healthy] = [await receiver(410), await receiver()];
    const endpoint = await registerEndpoint(ctx.app, partner, `${gone.url}/gone`, ['ride.accepted']);
    await registerEndpoint(ctx.app, partner, `${healthy.url}/up`, ['ride.completed']);
    await insertEvents(ctx.db, partner, ['ride.accepted']);
    const notice = await waitFor(() => healthy.requests.find((r) => JSON.parse(r.body.toString()).type === 'webhook_endpoint.disabled'), 'the disabled notice');
    expect(JSON.parse(notice.body.toString()).data).toMatchObject({ id: endpoint.id, disabled_reason: 'The endpoint answered 410 Gone' });
    const events = await api(partner).get(`/api/v1/webhooks`).expect(200);
    expect(events.body.data.find((e: { id: string }) => e.id === endpoint.id).status).toBe('disabled');
    expect(gone.requests).toHaveLength(1);
  });

  it('keeps an endpoint that failed for less than 5 days, and a 2xx clears its failure clock', async () => {
    const partner = newPartnerId();
    const server = await receiver(500);
    const endpoint = await registerEndpoint(ctx.app, partner, `${server.url}/flaky`, ['ride.accepted']);
    await ctx.db('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: ctx.db.raw("now() - interval '4 days'") });
    await insertEvents(ctx.db, partner, ['ride.accepted']);
    await waitFor(async () => (await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id }).first())?.status === 'failed', 'the delivery to fail');
    expect((await ctx.db('webhook_endpoints').where({ id: endpoint.id }).first()).status).toBe('enabled');

    server.setReply((_req, res) => sendJson(res, 200, {}));
    await insertEvents(ctx.db, partner, ['ride.accepted']);
    await waitFor(async () => (await ctx.db('webhook_endpoints').where({ id: endpoint.id }).first()).failing_since === null, 'the failure clock to clear');
  });
});

describe('POST /api/v1/webhooks/{id}/recover', () => {
  it('re-sends what the endpoint did not acknowledge since then (missed while disabled, or failed), and with include_succeeded everything', async () => {
    const partner = newPartnerId();
    const server = await receiver();
    const endpoint = await registerEndpoint(ctx.app, partner, `${server.url}/r`, ['ride.accepted', 'ride.completed']);
    const since = new Date(Date.now() - 1000).toISOString();
    const [acknowledged] = await insertEvents(ctx.db, partner, ['ride.accepted']);
    await waitFor(() => server.requests.length === 1, 'the first event');
    await waitFor(async () => (await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' })).length === 1, 'it recorded');
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: false }).expect(200);
    const [missed, unsubscribed] = await insertEvents(ctx.db, partner, ['ride.completed', 'ride.cancelled']);
    await waitFor(async () => (await ctx.db('outbox_events').where({ id: missed!.id }).first()).dispatched_at !== null, 'the relay to pass the missed event');
    await api(partner).post(`/api/v1/webhooks/${endpoint.id}/recover`, { since }).expect(409);
    await api(partner).patch(`/api/v1/webhooks/${endpoint.id}`, { enabled: true }).expect(200);

    const recovered = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/recover`, { since }).expect(202);
    expect(recovered.body).toMatchObject({ endpoint_id: endpoint.id, include_succeeded: false, queued: 1 });
    await waitFor(() => server.requests.length === 2, 'the missed event');
    expect(JSON.parse(server.requests[1]!.body.toString()).id).toBe(missed!.id);

    await waitFor(async () => (await ctx.db('webhook_deliveries').where({ endpoint_id: endpoint.id, status: 'succeeded' })).length === 2, 'both recorded');
    const all = await api(partner).post(`/api/v1/webhooks/${endpoint.id}/recover`, { since, include_succeeded: true }).expect(202);
    expect(all.body.queued).toBe(2);
    await waitFor(() => server.requests.length === 4, 'both again');
    const ids = server.requests.slice(2).map((r) => JSON.parse(r.body.toString()).id);
    expect(ids.sort()).toEqual([acknowledged!.id, missed!.id].sort());
    expect(ids).not.toContain(unsubscribed!.id);
  });

  it('refuses a bad since with 422 and another partner with 404', async () => {
    const partner = newPartnerId();
    const endpoint = await registerEndpoint(ctx.app, partner, `${(await receiver()).url}/bad`);
    await api(partner).post(`/api/v1/webhooks/${endpoint.id}/recover`, { since: 'yesterday' }).expect(422);
    await api(partner).post(`/api/v1/webhooks/${endpoint.id}/recover`, { since: new Date(Date.now() + 3600_000).toISOString() }).expect(422);
    await api(partner).post(`/api/v1/webhooks/${endpoint.id}/recover`, {}).expect(422);
    await api(newPartnerId()).post(`/api/v1/webhooks/${endpoint.id}/recover`, { since: new Date().toISOString() }).expect(404);
  });
});
