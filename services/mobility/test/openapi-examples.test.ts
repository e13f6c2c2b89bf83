import { createHash } from 'node:crypto';
import request from 'supertest';
import { mobilityOpenApi } from '../src/openapi';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, driverToken, newAdmin } from './factories/auth';
import { deliveryBody, onlineCourier, pickedUpDelivery } from './factories/deliveries';
import { ORGANIZER_SCOPES, programBody } from './factories/event-passes';
import { randomCentre, registerDriver } from './factories/fleet';
import { partnerApi, rideBody } from './factories/rides';

type Json = Record<string, unknown>;

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

interface DocumentedExample {
  label: string;
  method: string;
  template: string;
  body?: unknown;
  query?: Json;
}

/** An admin operation's choice of live or test data (`livemode`, `mode`): not a query of its own. */
const ADMIN_MODE_PARAMETERS = new Set(['livemode', 'mode']);

/** Every documented request example: each JSON request body's example, and each query-described GET with its parameters' examples. */
function documentedExamples(): DocumentedExample[] {
  return Object.entries(mobilityOpenApi().paths).flatMap(([template, item]) =>
    Object.entries(item as Record<string, Json>).flatMap(([method, operation]): DocumentedExample[] => {
      const label = `${method.toUpperCase()} ${template}`;
      const media = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json'];
      if (media) return [{ label, method, template, body: media.example }];
      const query = ((operation.parameters as Json[] | undefined) ?? []).filter((parameter) => parameter.in === 'query' && !ADMIN_MODE_PARAMETERS.has(parameter.name as string));
      if (query.length) return [{ label: `${label} ?query`, method, template, query: Object.fromEntries(query.filter((p) => 'example' in p).map((p) => [p.name as string, p.example])) }];
      return [];
    }),
  );
}

/** The caller and the records each operation needs: a real path and its Authorization header. */
const SETUPS: Record<string, () => Promise<{ path: string; authorization: string }>> = {
  'POST /api/v1/estimates': async () => partnerCall('/api/v1/estimates'),
  'POST /api/v1/rides': async () => partnerCall('/api/v1/rides'),
  'POST /api/v1/deliveries': async () => partnerCall('/api/v1/deliveries'),
  'POST /api/v1/deliveries/quotes': async () => partnerCall('/api/v1/deliveries/quotes'),
  'POST /api/v1/webhooks': async () => partnerCall('/api/v1/webhooks'),
  'GET /api/v1/webhooks ?query': async () => partnerCall('/api/v1/webhooks'),
  'GET /api/v1/webhooks/{id}/deliveries ?query': async () => {
    const { token } = await createPartnerKey(ctx);
    const endpoint = await partnerApi(ctx, token).post('/api/v1/webhooks', { url: 'https://93.184.215.14/hooks' }).expect(201);
    return { path: `/api/v1/webhooks/${endpoint.body.id as string}/deliveries`, authorization: `Bearer ${token}` };
  },
  'PATCH /api/v1/webhooks/{id}': async () => endpointCall(''),
  'POST /api/v1/webhooks/{id}/recover': async () => endpointCall('/recover'),
  'POST /api/v1/webhooks/{id}/rotate-secret': async () => endpointCall('/rotate-secret'),
  'GET /api/v1/events ?query': async () => partnerCall('/api/v1/events'),
  'GET /api/v1/rides ?query': async () => partnerCall('/api/v1/rides'),
  'GET /api/v1/deliveries ?query': async () => partnerCall('/api/v1/deliveries'),
  'POST /api/v1/event-pass-programs': async () => organizerCall('/api/v1/event-pass-programs'),
  'GET /api/v1/event-pass-programs ?query': async () => organizerCall('/api/v1/event-pass-programs'),
  'POST /api/v1/event-pass-programs/{id}/passes': async () => programCall('passes'),
  'GET /api/v1/event-pass-programs/{id}/passes ?query': async () => programCall('passes'),
  'POST /driver/v1/sessions': async () => {
    await activationCodeFor(exampleBody('/driver/v1/sessions').activation_code as string);
    return { path: '/driver/v1/sessions', authorization: 'Bearer unused' };
  },
  'POST /driver/v1/sessions/refresh': async () => {
    const code = await activationCodeFor('HXRT-7K2M-QW4P');
    const session = await request(ctx.app).post('/driver/v1/sessions').send({ activation_code: code }).expect(201);
    const sessionId = (await ctx.db('driver_refresh_tokens').where({ token_hash: sha256(session.body.refresh_token as string) }).first()).session_id as string;
    const token = exampleBody('/driver/v1/sessions/refresh').refresh_token as string;
    await ctx.db('driver_refresh_tokens').insert({ token_hash: sha256(token), session_id: sessionId, expires_at: new Date(Date.now() + 3600_000) });
    return { path: '/driver/v1/sessions/refresh', authorization: 'Bearer unused' };
  },
  'POST /api/v1/sandbox/rides/{id}/advance': async () => {
    const { token } = await createPartnerKey(ctx, { mode: 'test' });
    const ride = await partnerApi(ctx, token).post('/api/v1/rides', rideBody(randomCentre())).expect(201);
    return { path: `/api/v1/sandbox/rides/${ride.body.id as string}/advance`, authorization: `Bearer ${token}` };
  },
  'POST /api/v1/sandbox/deliveries/{id}/advance': async () => {
    const { token } = await createPartnerKey(ctx, { mode: 'test' });
    const delivery = await partnerApi(ctx, token).post('/api/v1/deliveries', deliveryBody(randomCentre())).expect(201);
    return { path: `/api/v1/sandbox/deliveries/${delivery.body.id as string}/advance`, authorization: `Bearer ${token}` };
  },
  'POST /driver/v1/availability': async () => driverCall('/driver/v1/availability'),
  'POST /driver/v1/location': async () => driverCall('/driver/v1/location'),
  'POST /driver/v1/deliveries/{id}/deliver': async () => pickedUp('deliver', { security_pin: '4821' }),
  'POST /driver/v1/deliveries/{id}/fail': async () => pickedUp('fail'),
  'POST /admin/v1/api-keys': async () => ({ path: '/admin/v1/api-keys', authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}` }),
  'GET /admin/v1/api-keys ?query': async () => ({ path: '/admin/v1/api-keys', authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}` }),
  'POST /admin/v1/api-keys/{id}/rotate': async () => {
    const authorization = `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}`;
    const key = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', authorization).send({ name: 'Example key', scopes: ['rides:read'] }).expect(201);
    return { path: `/admin/v1/api-keys/${key.body.id as string}/rotate`, authorization };
  },
  'PATCH /admin/v1/partner/branding': async () => ({ path: '/admin/v1/partner/branding', authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}` }),
  'POST /admin/v1/drivers': async () => ({ path: '/admin/v1/drivers', authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'operator' }))}` }),
  'GET /admin/v1/drivers ?query': async () => ({ path: '/admin/v1/drivers', authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'operator' }))}` }),
  'GET /admin/v1/rides ?query': async () => adminCall('/admin/v1/rides'),
  'GET /admin/v1/deliveries ?query': async () => adminCall('/admin/v1/deliveries'),
  'GET /admin/v1/events ?query': async () => adminCall('/admin/v1/events'),
  'GET /admin/v1/summary ?query': async () => adminCall('/admin/v1/summary'),
  'GET /admin/v1/audit-log ?query': async () => ({ path: '/admin/v1/audit-log', authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'owner' }))}` }),
  'POST /admin/v1/webhooks': async () => adminCall('/admin/v1/webhooks'),
  'GET /admin/v1/webhooks ?query': async () => adminCall('/admin/v1/webhooks'),
  'PATCH /admin/v1/webhooks/{id}': async () => adminEndpointCall(''),
  'POST /admin/v1/webhooks/{id}/recover': async () => adminEndpointCall('/recover'),
  'POST /admin/v1/webhooks/{id}/rotate-secret': async () => adminEndpointCall('/rotate-secret'),
  'POST /admin/v1/webhooks/{id}/examples': async () => adminEndpointCall('/examples'),
  'GET /admin/v1/webhooks/{id}/deliveries ?query': async () => adminEndpointCall('/deliveries'),
  'GET /admin/v1/search ?query': async () => adminCall('/admin/v1/search'),
  'POST /admin/v1/event-pass-programs': async () => adminCall('/admin/v1/event-pass-programs'),
  'GET /admin/v1/event-pass-programs ?query': async () => adminCall('/admin/v1/event-pass-programs'),
  'POST /admin/v1/event-pass-programs/{id}/passes': async () => adminProgramCall('passes'),
  'GET /admin/v1/event-pass-programs/{id}/passes ?query': async () => adminProgramCall('passes'),
};

/** The dashboard's admin twins of the partner routes, as an organization's operator. */
function adminCall(path: string) {
  return { path, authorization: `Bearer ${adminToken(ctx, newAdmin({ role: 'operator' }))}` };
}

async function adminEndpointCall(sub: string) {
  const { authorization } = adminCall('');
  const endpoint = await request(ctx.app).post('/admin/v1/webhooks').set('Authorization', authorization).send({ url: 'https://93.184.215.14/hooks' }).expect(201);
  return { path: `/admin/v1/webhooks/${endpoint.body.id as string}${sub}`, authorization };
}

async function adminProgramCall(sub: string) {
  const { authorization } = adminCall('');
  const program = await request(ctx.app).post('/admin/v1/event-pass-programs').set('Authorization', authorization).send(programBody(randomCentre())).expect(201);
  return { path: `/admin/v1/event-pass-programs/${program.body.id as string}/${sub}`, authorization };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

function exampleBody(path: string): Json {
  const operation = (mobilityOpenApi().paths[path] as Record<string, Json>).post!;
  return (((operation.requestBody as Json).content as Record<string, Json>)['application/json']!.example) as Json;
}

/** Makes `code` (the description's example) a registered driver's valid activation code, as an operator's would be. */
async function activationCodeFor(code: string): Promise<string> {
  const driver = await registerDriver(ctx);
  const row = await ctx.db('driver_activation_codes').where({ driver_id: driver.id }).first();
  await ctx.db('driver_activation_codes').where({ id: row.id }).update({ code_hash: sha256(code.replace(/-/g, '')) });
  return code;
}

async function partnerCall(path: string) {
  const { token } = await createPartnerKey(ctx);
  return { path, authorization: `Bearer ${token}` };
}

/** A partner's webhook endpoint, for its sub-resources (`''` for the endpoint itself). */
async function endpointCall(sub: string) {
  const { token } = await createPartnerKey(ctx);
  const endpoint = await partnerApi(ctx, token).post('/api/v1/webhooks', { url: 'https://93.184.215.14/hooks' }).expect(201);
  return { path: `/api/v1/webhooks/${endpoint.body.id as string}${sub}`, authorization: `Bearer ${token}` };
}

async function organizerCall(path: string) {
  const { token } = await createPartnerKey(ctx, { scopes: ORGANIZER_SCOPES });
  return { path, authorization: `Bearer ${token}` };
}

/** An organizer's program (open), for its sub-resources. */
async function programCall(sub: string) {
  const { token } = await createPartnerKey(ctx, { scopes: ORGANIZER_SCOPES });
  const program = await partnerApi(ctx, token).post('/api/v1/event-pass-programs', programBody(randomCentre())).expect(201);
  return { path: `/api/v1/event-pass-programs/${program.body.id as string}/${sub}`, authorization: `Bearer ${token}` };
}

async function driverCall(path: string) {
  const driver = await registerDriver(ctx);
  return { path, authorization: `Bearer ${driverToken(ctx, driver.id)}` };
}

/** A delivery its courier has picked up (with the example's PIN where the move needs it). */
async function pickedUp(move: 'deliver' | 'fail', overrides: Record<string, unknown> = {}) {
  const centre = randomCentre();
  const courier = await onlineCourier(ctx, centre);
  const partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
  const delivery = await pickedUpDelivery(partner, courier, centre, overrides);
  return { path: `/driver/v1/deliveries/${delivery.id}/${move}`, authorization: `Bearer ${driverToken(ctx, courier.id)}` };
}

describe('every request example in the mobility description is accepted', () => {
  const examples = documentedExamples();

  it('has an example for every request body and every query, and a setup for every such operation', () => {
    expect(examples.map((example) => example.label).sort()).toEqual(Object.keys(SETUPS).sort());
    expect(examples.filter((example) => example.body === undefined && example.query === undefined).map((example) => example.label)).toEqual([]);
    expect(examples.filter((example) => example.query && Object.keys(example.query).length === 0).map((example) => example.label)).toEqual([]);
  });

  it.each(examples.map((example) => [example.label, example] as const))('%s answers 2xx', async (label, example) => {
    const setup = SETUPS[label];
    if (!setup) throw new Error(`no setup for ${label}`);
    const { path, authorization } = await setup();
    let call = request(ctx.app)[example.method as 'get' | 'post' | 'patch'](path).set('Authorization', authorization);
    if (example.query) call = call.query(example.query);
    if (example.body !== undefined) call = call.send(example.body as object);
    // `.expect` also runs the conformance check: the answer must match the description.
    const res = await call.expect((answer) => {
      if (answer.status < 200 || answer.status >= 300) throw new Error(`${label} answered ${answer.status}: ${answer.text}`);
    });
    expect(res.status).toBeLessThan(300);
  }, 60000);
});
