import { randomBytes } from 'node:crypto';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { redisUrl, runRedisPrefix } from '@platform/test-kit';
import { createLocationThrottle } from '../src/features/telemetry/location-throttle';
import { offset, randomCentre } from './factories/fleet';

let redis: Redis;
const prefix = `${runRedisPrefix()}:throttle`;
const newJobId = () => `ride_${randomBytes(8).toString('hex')}`;

beforeAll(() => {
  redis = createRedis(redisUrl());
});
afterAll(() => redis.disconnect());

/** The rule of location webhooks, on the real Redis: first report, 10 s since the last sent one, or 200 m from it. */
describe('the per-job location webhook throttle', () => {
  const throttle = () => createLocationThrottle(redis, prefix, { minIntervalMs: 10_000, minMeters: 200 });

  it('lets the first report through, holds short moves, and lets one through once 10 s have passed since the last sent', async () => {
    const gate = throttle();
    const job = newJobId();
    const start = randomCentre();
    expect(await gate.shouldEmit(job, start)).toBe(true);
    expect(await gate.shouldEmit(job, offset(start, 150, 0))).toBe(false);
    expect(await gate.shouldEmit(job, offset(start, 0, 199))).toBe(false);
    // Ten seconds pass: the last sent report is moved back in time rather than waiting.
    const key = `${prefix}:telemetry:last-event:${job}`;
    await redis.hset(key, 'at', Number(await redis.hget(key, 'at')) - 10_000);
    expect(await gate.shouldEmit(job, offset(start, 20, 0))).toBe(true);
    expect(await gate.shouldEmit(job, offset(start, 40, 0))).toBe(false);
    // Distance is measured from the last SENT point, not the last report.
    expect(await gate.shouldEmit(job, offset(start, 230, 0))).toBe(true);
  });

  it('lets exactly one of many simultaneous reports of a job through', async () => {
    const job = newJobId();
    const at = randomCentre();
    const gates = [throttle(), throttle()];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => gates[i % 2]!.shouldEmit(job, at)));
    expect(answers.filter(Boolean)).toHaveLength(1);
  });

  it('keeps jobs apart', async () => {
    const gate = throttle();
    const at = randomCentre();
    expect(await gate.shouldEmit(newJobId(), at)).toBe(true);
    expect(await gate.shouldEmit(newJobId(), at)).toBe(true);
  });
});
