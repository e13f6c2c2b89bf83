import request from 'supertest';
import pino from 'pino';
import { createMetrics } from '@platform/service-kit/metrics';
import { createRedis } from '@platform/service-kit/redis';
import { clearRedisPrefix, newRedisPrefix, redisUrl } from '@platform/test-kit';
import { publicApiFastLane } from '../src/features/verification/public-api.fast-lane';
import { createTestContext, type TestContext } from './helpers/context';
import { createApiKey, newOrg } from './factories/admin';
import { expectToMatchRouteTable } from './helpers/openapi';

const PER_ORGANIZATION = 5;
const prefix = newRedisPrefix('cert_org_limit');
const redis = createRedis(redisUrl());
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: String(PER_ORGANIZATION), REDIS_PREFIX: prefix }, { redis });
});
afterAll(async () => {
  await ctx.close();
  await clearRedisPrefix(prefix);
  redis.disconnect();
});

describe('the per-organization request budget (RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE)', () => {
  it("is shared by the organization's keys, fast lane and Express alike: 429 rate_limited with Retry-After once spent; another organization's key still 200", async () => {
    const org = newOrg(ctx);
    const [first, second] = [await createApiKey(ctx, org, 'first'), await createApiKey(ctx, org, 'second')];
    const lane = publicApiFastLane({ apiKeys: ctx.services.apiKeys, publicApi: ctx.services.publicApi, organizations: ctx.services.organizationRequests, logger: pino({ level: 'silent' }), metrics: createMetrics('certificate') }, ctx.app);
    const credits = (server: typeof lane, token: string) => request(server).get('/api/v1/credits').set('Authorization', `Bearer ${token}`);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await credits(i % 2 ? ctx.app : lane, first.token)).status);
    for (let i = 0; i < 2; i++) statuses.push((await credits(i % 2 ? lane : ctx.app, second.token)).status);
    expect(statuses).toEqual(Array<number>(PER_ORGANIZATION).fill(200));

    // Each key has made at most 3 requests, yet the organization has made its 5.
    for (const [server, token] of [[ctx.app, second.token], [lane, second.token], [ctx.app, first.token]] as const) {
      const limited = await credits(server, token);
      expect(limited.status).toBe(429);
      expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(limited.body).toMatchObject({ status: 429, code: 'rate_limited' });
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expectToMatchRouteTable(limited);
    }
    const verify = await request(ctx.app).get('/api/v1/verify/AAAAAA-BBBBBB-CCCCCC').set('Authorization', `Bearer ${first.token}`);
    expect(verify.status).toBe(429);

    const other = newOrg(ctx);
    const theirs = await createApiKey(ctx, other);
    expect((await credits(ctx.app, theirs.token)).status).toBe(200);
    expect((await credits(lane, theirs.token)).status).toBe(200);
    // The count lives in Redis under the service's prefix, by organization.
    expect(Number(await redis.get(`${prefix}:certificate:ratelimit:org:${org.org}`))).toBeGreaterThan(PER_ORGANIZATION);
  });
});
