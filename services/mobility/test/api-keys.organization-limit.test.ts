import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';

const PER_ORGANIZATION = 5;
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: String(PER_ORGANIZATION) });
});
afterAll(() => ctx.close());

const rides = (token: string, header: 'bearer' | 'x-api-key' = 'bearer') =>
  request(ctx.app).get('/api/v1/rides').set(header === 'bearer' ? { Authorization: `Bearer ${token}` } : { 'X-API-KEY': token });

describe('the per-organization request budget (RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE)', () => {
  it("is shared by the organization's keys, live and test together: 429 rate_limited with Retry-After once spent; another organization's key still 200", async () => {
    const live = await createPartnerKey(ctx);
    const test = await createPartnerKey(ctx, { owner: live.owner, mode: 'test' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await rides(live.token, i % 2 ? 'x-api-key' : 'bearer')).status);
    for (let i = 0; i < 2; i++) statuses.push((await rides(test.token)).status);
    expect(statuses).toEqual(Array<number>(PER_ORGANIZATION).fill(200));

    // Neither key has made 5 requests, yet the organization has.
    for (const token of [test.token, live.token]) {
      const limited = await rides(token);
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(limited.body).toMatchObject({ status: 429, code: 'rate_limited' });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    const other = await createPartnerKey(ctx);
    expect((await rides(other.token)).status).toBe(200);
    // The count lives in Redis under the service's prefix, by organization (the partner).
    expect(Number(await ctx.redis.get(`${ctx.config.REDIS_PREFIX}:mobility:ratelimit:org:${live.owner.org}`))).toBeGreaterThan(PER_ORGANIZATION);
  });
});
