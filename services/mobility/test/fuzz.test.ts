import fc from 'fast-check';
import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { adminToken, createPartnerKey, driverToken } from './factories/auth';
import { onlineDriver, randomCentre } from './factories/fleet';

/**
 * Generated bodies, headers and path parameters against every partner, driver and admin route: no answer may be a
 * 5xx, and every error is JSON with a text and a code. (Answers on documented routes are also checked against
 * the route table by the suite-wide conformance hook.) CI runs a fixed seed so a red run is reproducible; locally each
 * run explores new inputs, and FUZZ_SEED replays one that failed.
 */
const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.CI ? 20261126 : undefined;

let ctx: TestContext;
let token: string;
let owner: string;
let driver: string;

beforeAll(async () => {
  ctx = createTestContext();
  const key = await createPartnerKey(ctx);
  token = key.token;
  owner = `Bearer ${adminToken(ctx, key.owner)}`;
  const online = await onlineDriver(ctx, randomCentre());
  driver = `Bearer ${driverToken(ctx, online.id)}`;
});
afterAll(() => ctx.close());

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const coordinate = fc.record({ lat: fc.oneof(fc.double(), fc.integer(), fc.string()), lng: fc.oneof(fc.double(), fc.integer(), fc.constant(null)) }, { requiredKeys: [] });
// Bodies shaped like the real ones, with every field free to be wrong, next to arbitrary JSON.
const shapedBody = fc.record(
  {
    pickup: coordinate,
    dropoff: coordinate,
    tier: fc.oneof(fc.constantFrom('economy', 'moto', 'xl', 'limo'), fc.string()),
    passenger: fc.record({ name: fc.string(), phone: fc.oneof(fc.string(), fc.integer()) }, { requiredKeys: [] }),
    weight_tier: fc.constantFrom('small', 'xlarge', 'huge', ''),
    security_pin: fc.oneof(fc.stringMatching(/^\d{1,10}$/), fc.string()),
    pin: fc.oneof(fc.stringMatching(/^\d{1,10}$/), fc.string()),
    available: fc.oneof(fc.boolean(), fc.string()),
    lat: fc.oneof(fc.double(), fc.string()),
    lng: fc.double(),
    scopes: fc.array(fc.string(), { maxLength: 3 }),
    name: fc.string(),
    // Never a resolvable host: registration resolves the URL, and tests send no traffic beyond loopback.
    url: fc.constantFrom('https://127.0.0.1/hook', 'http://localhost/x', 'ftp://example.invalid', '', 'not a url', 'https://[::1]/'),
    events: fc.array(fc.string(), { maxLength: 3 }),
    estimate_id: fc.string(),
    reason: fc.string(),
    photo_url: fc.string(),
    activation_code: fc.oneof(fc.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/), fc.string()),
    refresh_token: fc.oneof(fc.stringMatching(/^drt_[0-9A-Za-z]{43}$/), fc.string()),
  },
  { requiredKeys: [] },
);
const anyText = fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom("' OR 1=1 --", '%00', '../../etc/passwd', '{"a":', 'null', '[]'));
const pathSegment = fc
  .oneof(anyText, fc.constantFrom('ride_' + 'a'.repeat(20), 'dlv_' + '0'.repeat(20), 'ofr_' + 'z'.repeat(20), 'whe_' + '1'.repeat(20), '__proto__', 'constructor'))
  .map((s) => encodeURIComponent(s) || 'x');
const headerText = fc.oneof(fc.stringMatching(/^[\x21-\x7e ]{0,120}$/), fc.constantFrom('Bearer ', 'Bearer mk_', 'Basic Zm9vOmJhcg=='));
const contentType = fc.constantFrom('application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/merge-patch+json', '');

type Auth = 'key' | 'driver' | 'admin';
const routes: Array<{ method: 'get' | 'post' | 'delete'; path: (seg: string) => string; auth: Auth }> = [
  { method: 'post', path: () => '/api/v1/estimates', auth: 'key' },
  { method: 'post', path: () => '/api/v1/rides', auth: 'key' },
  { method: 'get', path: (s) => `/api/v1/rides/${s}`, auth: 'key' },
  { method: 'post', path: (s) => `/api/v1/rides/${s}/cancel`, auth: 'key' },
  { method: 'post', path: () => '/api/v1/deliveries', auth: 'key' },
  { method: 'get', path: (s) => `/api/v1/deliveries/${s}`, auth: 'key' },
  { method: 'post', path: (s) => `/api/v1/deliveries/${s}/cancel`, auth: 'key' },
  { method: 'post', path: () => '/api/v1/webhooks', auth: 'key' },
  { method: 'get', path: (s) => `/api/v1/webhooks?limit=${s}&cursor=${s}`, auth: 'key' },
  { method: 'delete', path: (s) => `/api/v1/webhooks/${s}`, auth: 'key' },
  { method: 'get', path: (s) => `/api/v1/webhooks/${s}/deliveries`, auth: 'key' },
  { method: 'post', path: (s) => `/api/v1/webhooks/${s}/deliveries/${s}/retry`, auth: 'key' },
  { method: 'post', path: () => '/driver/v1/availability', auth: 'driver' },
  { method: 'post', path: () => '/driver/v1/location', auth: 'driver' },
  { method: 'get', path: () => '/driver/v1/offers', auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/offers/${s}/accept`, auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/offers/${s}/decline`, auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/rides/${s}/start`, auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/rides/${s}/cancel`, auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/deliveries/${s}/pickup`, auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/deliveries/${s}/deliver`, auth: 'driver' },
  { method: 'post', path: (s) => `/driver/v1/deliveries/${s}/fail`, auth: 'driver' },
  { method: 'post', path: () => '/admin/v1/api-keys', auth: 'admin' },
  { method: 'post', path: (s) => `/admin/v1/api-keys/${s}/rotate`, auth: 'admin' },
  { method: 'delete', path: (s) => `/admin/v1/api-keys/${s}`, auth: 'admin' },
  { method: 'post', path: () => '/admin/v1/drivers', auth: 'admin' },
  { method: 'get', path: (s) => `/admin/v1/drivers/${s}`, auth: 'admin' },
  { method: 'post', path: (s) => `/admin/v1/drivers/${s}/activation-codes`, auth: 'admin' },
  { method: 'post', path: () => '/driver/v1/sessions', auth: 'driver' },
  { method: 'post', path: () => '/driver/v1/sessions/refresh', auth: 'driver' },
  { method: 'delete', path: () => '/driver/v1/sessions/current', auth: 'driver' },
];

function expectSaneAnswer(res: request.Response, label: string) {
  if (res.status >= 500) throw new Error(`${label} answered ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(typeof res.body.error).toBe('string');
    expect(typeof res.body.code).toBe('string');
  }
}

describe('fuzzing every mobility route', () => {
  it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path(':param')}`, r] as const))('%s never answers 5xx or a non-JSON error', async (label, route) => {
    const credentials: Record<Auth, string> = { key: `Bearer ${token}`, driver, admin: owner };
    await fc.assert(
      fc.asyncProperty(
        pathSegment,
        fc.oneof(shapedBody, jsonValue),
        fc.option(anyText, { freq: 4 }),
        contentType,
        fc.option(headerText, { freq: 3 }),
        fc.option(headerText, { freq: 3 }),
        async (segment, body, rawBody, type, authorization, idempotencyKey) => {
          let req = request(ctx.app)[route.method](route.path(segment));
          req = req.set('Authorization', authorization ?? credentials[route.auth]);
          if (idempotencyKey !== null) req = req.set('Idempotency-Key', idempotencyKey);
          if (route.method !== 'get') {
            if (type) req = req.set('Content-Type', type);
            req = req.send(rawBody ?? JSON.stringify(body));
          }
          expectSaneAnswer(await req, label);
        },
      ),
      { numRuns: 40, seed: FUZZ_SEED },
    );
  });
});
