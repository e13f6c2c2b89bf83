import { randomBytes } from 'node:crypto';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { redisUrl, runRedisPrefix } from '@platform/test-kit';
import { FleetLocations, scopesServing, searchRadii, SearchDensity } from '../src/features/fleet/fleet.locations';

/**
 * The nearest-driver search sizes its first circle to the density it has seen: in a dense city it searches a circle
 * of a few dozen drivers instead of the fixed 500 m one holding hundreds. What a partner notices is that the drivers
 * offered are still the nearest ones, dense or sparse, and that every search still finds as many as there are.
 */
let redis: Redis;
let prefix: string;
beforeAll(() => {
  redis = createRedis(redisUrl());
  prefix = `${runRedisPrefix()}_density_${randomBytes(3).toString('hex')}`;
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const CENTRE = { lat: 6.5244, lng: 3.3792 };
const PARTNER = 'org_density';

/** `count` drivers spread uniformly over a square `spreadDeg` wide around the centre, split between both indexes. */
async function seed(locations: FleetLocations, tier: 'economy' | 'comfort', count: number, spreadDeg: number): Promise<void> {
  const [own, platform] = scopesServing(PARTNER).map((scope) => locations.indexKey('driver', tier, scope));
  const args: Record<string, (string | number)[]> = { [own!]: [], [platform!]: [] };
  for (let i = 0; i < count; i++) {
    const key = i % 2 === 0 ? own! : platform!;
    args[key]!.push(CENTRE.lng + (Math.random() - 0.5) * spreadDeg, CENTRE.lat + (Math.random() - 0.5) * spreadDeg, `drv_${tier}_${i}`);
  }
  for (const [key, members] of Object.entries(args)) await redis.geoadd(key, ...members);
}

/** The `count` nearest of both indexes within the whole radius, as one unsorted-then-sorted search of everything. */
async function exhaustiveNearest(locations: FleetLocations, tier: 'economy' | 'comfort', at: { lat: number; lng: number }, radius: number, count: number): Promise<string[]> {
  const rows: [string, string][] = [];
  for (const scope of scopesServing(PARTNER)) {
    rows.push(...((await redis.geosearch(locations.indexKey('driver', tier, scope), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radius, 'm', 'ASC', 'WITHDIST')) as [string, string][]));
  }
  return rows.sort((a, b) => Number(a[1]) - Number(b[1])).slice(0, count).map(([id]) => id);
}

describe('nearest-driver search sized to the density', () => {
  it('offers the same nearest drivers as an exhaustive search, in a dense area and then a sparse one', async () => {
    const locations = new FleetLocations(redis, prefix);
    await seed(locations, 'economy', 4000, 0.02); // about 4,000 drivers in 2.2 km × 2.2 km
    for (let i = 0; i < 40; i++) {
      const at = { lat: CENTRE.lat + (Math.random() - 0.5) * 0.01, lng: CENTRE.lng + (Math.random() - 0.5) * 0.01 };
      const found = await locations.nearest('driver', 'economy', PARTNER, at, 5000, 25);
      expect(found.map((driver) => driver.driverId)).toEqual(await exhaustiveNearest(locations, 'economy', at, 5000, 25));
    }
    // Far from the crowd the learned small circle holds nobody: the search widens and still finds the nearest.
    const far = { lat: CENTRE.lat + 0.03, lng: CENTRE.lng + 0.03 };
    const found = await locations.nearest('driver', 'economy', PARTNER, far, 5000, 25);
    expect(found).toHaveLength(25);
    expect(found.map((driver) => driver.driverId)).toEqual(await exhaustiveNearest(locations, 'economy', far, 5000, 25));
  });

  it('finds the nearest driver of each tier when one tier is dense and the other sparse', async () => {
    const locations = new FleetLocations(redis, prefix);
    await seed(locations, 'comfort', 6, 0.05);
    for (let i = 0; i < 10; i++) {
      const at = { lat: CENTRE.lat + (Math.random() - 0.5) * 0.01, lng: CENTRE.lng + (Math.random() - 0.5) * 0.01 };
      await locations.nearest('driver', 'economy', PARTNER, at, 5000, 25); // teaches the dense tier's density
      const nearest = await locations.nearestOfEachTier('driver', ['economy', 'comfort'], PARTNER, at, 5000);
      expect(nearest.get('economy')?.driverId).toBe((await exhaustiveNearest(locations, 'economy', at, 5000, 1))[0]);
      expect(nearest.get('comfort')?.driverId).toBe((await exhaustiveNearest(locations, 'comfort', at, 5000, 1))[0]);
    }
  });

  it('sizes the first circle from what it learned, never below 50 m, and only when smaller than 500 m', () => {
    const density = new SearchDensity();
    expect(density.firstRadius('driver:economy:org_a', 25)).toBeUndefined();
    density.learn('driver:economy:org_a', 25, 100); // 25 drivers within 100 m
    const radius = density.firstRadius('driver:economy:org_a', 25)!;
    expect(radius).toBeGreaterThan(100);
    expect(radius).toBeLessThan(200);
    expect(density.firstRadius('driver:economy:org_b', 25)).toBeUndefined(); // another partner learned nothing
    density.learn('driver:comfort:org_a', 1, 0); // a driver standing on the pickup
    expect(density.firstRadius('driver:comfort:org_a', 1)).toBe(50);
    expect(searchRadii(5000, 120)).toEqual([120, 500, 1500, 5000]);
    expect(searchRadii(5000, 800)).toEqual([500, 1500, 5000]);
    expect(searchRadii(1000, 120)).toEqual([120, 500, 1000]);
    expect(searchRadii(300)).toEqual([300]);
  });
});
