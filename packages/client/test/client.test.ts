import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import path from 'node:path';
import { listen, sendJson, startFakeServer, type RunningServer } from '@platform/test-kit';
import { createTestContext, type TestContext } from '@platform/certificate/test/helpers/context';
import { createApiKey, issueCertificate, newOrg } from '@platform/certificate/test/factories/admin';
import { createPartnerClient, type EventPass, type Ride } from '@platform/client';
import { startGateway } from '@platform/gateway/test/helpers';

let ctx: TestContext;
let certificate: RunningServer;
let mobility: Awaited<ReturnType<typeof startFakeServer>>;
let gateway: RunningServer;

beforeAll(async () => {
  ctx = createTestContext();
  certificate = await listen(createServer(ctx.app));
  mobility = await startFakeServer((_req, res) => sendJson(res, 404, { error: 'Route not found', code: 'route_not_found' }));
  gateway = await startGateway({ certificate: certificate.url, mobility: mobility.url });
});
afterAll(async () => {
  await Promise.all([gateway.close(), certificate.close(), mobility.close()]);
  await ctx.close();
});

describe('@platform/client against the real certificate service', () => {
  it('reads credits and verifies a certificate through the gateway, typed end to end', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const issued = await issueCertificate(ctx, org, { recipient_name: 'Grace Hopper' });
    const client = createPartnerClient({ baseUrl: gateway.url, apiKey: key.token });

    const credits = await client.GET('/api/v1/credits');
    expect(credits.response.status).toBe(200);
    expect(credits.data).toEqual({ organization: org.orgName, balance: 9, plan: 'free', livemode: true });

    const { data, error, response } = await client.GET('/api/v1/verify/{code}', { params: { path: { code: issued.verification_code } } });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    const recipient: string | undefined = data?.recipient_name;
    expect(recipient).toBe('Grace Hopper');
    expect(data).toMatchObject({ valid: true, certificate_status: 'valid', organization_name: org.orgName, certificate_number: issued.certificate_number });
  });

  it('hands back the typed error body on 404 and 401', async () => {
    const org = newOrg(ctx);
    const key = await createApiKey(ctx, org);
    const client = createPartnerClient({ baseUrl: certificate.url, apiKey: key.token });
    const missing = await client.GET('/api/v1/verify/{code}', { params: { path: { code: 'ABCDEF-GHJKMN-PQRSTU' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error).toMatchObject({ valid: false, error: 'Certificate not found', code: 'not_found' });

    const anonymous = createPartnerClient({ baseUrl: certificate.url });
    const refused = await anonymous.GET('/api/v1/credits');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ error: 'Missing API key', code: 'missing_api_key' });
  });

  it('types the gateway\'s own 502 when the service behind it is down', async () => {
    const lonely = await startGateway({ certificate: 'http://127.0.0.1:9', mobility: 'http://127.0.0.1:9' });
    try {
      const { error, response } = await createPartnerClient({ baseUrl: lonely.url, apiKey: 'ck_x' }).GET('/api/v1/credits');
      expect(response.status).toBe(502);
      const code: string | undefined = error?.code;
      expect(code).toBe('upstream_unavailable');
    } finally {
      await lonely.close();
    }
  });

  it('sends a typed ride request with its Idempotency-Key and JSON body', async () => {
    const ride: Ride = {
      id: 'ride_1', status: 'pending', tier: 'economy', pickup: { lat: 6.45, lng: 3.4, address: null }, dropoff: { lat: 6.5, lng: 3.37, address: null },
      fare: { amount: 250000, currency: 'NGN' }, passenger: { name: 'Ada', phone: '+2348000000000' }, driver: null, vehicle_location: null,
      cancelled_by: null, livemode: true, created_at: '2026-11-26T10:00:00.000Z', updated_at: '2026-11-26T10:00:00.000Z',
    };
    mobility.setReply((_req, res) => sendJson(res, 201, ride));
    const client = createPartnerClient({ baseUrl: gateway.url, apiKey: 'mk_test' });
    const { data, response } = await client.POST('/api/v1/rides', {
      params: { header: { 'Idempotency-Key': 'order-42' } },
      body: { pickup: { lat: 6.45, lng: 3.4 }, dropoff: { lat: 6.5, lng: 3.37 }, tier: 'economy', passenger: { name: 'Ada', phone: '+2348000000000' } },
    });
    expect(response.status).toBe(201);
    expect(data?.status).toBe('pending');
    const sent = mobility.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/api/v1/rides');
    expect(sent.headers['idempotency-key']).toBe('order-42');
    expect(sent.headers.authorization).toBe('Bearer mk_test');
    expect(JSON.parse(sent.body.toString())).toMatchObject({ tier: 'economy', passenger: { name: 'Ada' } });
  });

  it('issues event passes with a typed body and reads the typed passes back', async () => {
    const pass: EventPass = {
      id: 'evpass_1', program_id: 'evp_1', code: 'EVT-7KQ2-M9XD-4HPRT', status: 'active', attendee: { reference: 'T-1', name: 'Ada' },
      rides_allowed: 2, rides_used: 0, rides_left: 2, revoked_at: null, created_at: '2026-11-26T10:00:00.000Z',
    };
    mobility.setReply((_req, res) => sendJson(res, 201, { data: [pass] }));
    const client = createPartnerClient({ baseUrl: gateway.url, apiKey: 'mk_test' });
    const { data, response } = await client.POST('/api/v1/event-pass-programs/{id}/passes', {
      params: { path: { id: 'evp_1' } },
      body: { attendees: [{ reference: 'T-1', name: 'Ada' }] },
    });
    expect(response.status).toBe(201);
    expect(data?.data[0]?.code).toBe('EVT-7KQ2-M9XD-4HPRT');
    const sent = mobility.requests.at(-1)!;
    expect(sent.url).toBe('/api/v1/event-pass-programs/evp_1/passes');
    expect(JSON.parse(sent.body.toString())).toEqual({ attendees: [{ reference: 'T-1', name: 'Ada' }] });
  });

  it('rejects calls the description does not allow, at compile time', () => {
    const client = createPartnerClient({ baseUrl: gateway.url });
    // These lines are checked by `pnpm typecheck`; at run time they only build promises that are never awaited.
    const checks = () => [
      // @ts-expect-error the admin API is not exposed by the gateway, so it is not in the client
      client.GET('/admin/v1/api-keys'),
      // @ts-expect-error the path parameter `code` is required
      client.GET('/api/v1/verify/{code}', { params: { path: {} } }),
      // @ts-expect-error `tier` must be one of moto, economy, comfort, xl
      client.POST('/api/v1/rides', { body: { pickup: { lat: 0, lng: 0 }, dropoff: { lat: 0, lng: 0 }, tier: 'limo', passenger: { name: 'A', phone: '123' } } }),
      // @ts-expect-error `applies_to` must be to_venue, from_venue or both
      client.POST('/api/v1/event-pass-programs', { body: { name: 'F', venue: { lat: 0, lng: 0, radius_m: 500 }, valid_from: 'x', valid_until: 'y', applies_to: 'near', tiers: ['economy'], max_fare_per_ride: 1, budget: 1, rides_per_pass: 1 } }),
    ];
    expect(typeof checks).toBe('function');
  });
});

describe('the package itself', () => {
  it('loads openapi-fetch as CommonJS, as our TypeScript setup compiles to', () => {
    expect(require.resolve('openapi-fetch')).toMatch(/index\.cjs$/);
  });

  // From the sources (the `source` condition), so a package whose dist/ is older than its src/ cannot make the check pass.
  it('keeps src/schema.ts and the committed descriptions (services/*/openapi.json, gateway/openapi.json) in step with the sources', () => {
    const result = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'scripts/generate.ts', '--check'], { cwd: path.join(__dirname, '..'), encoding: 'utf8', timeout: 60000 });
    expect(result.stderr).toBe('');
    for (const file of ['services/certificate/openapi.json', 'services/mobility/openapi.json', 'gateway/openapi.json', 'packages/client/src/schema.ts']) expect(result.stdout).toContain(`${file} is up to date`);
    expect(result.status).toBe(0);
  });
});
