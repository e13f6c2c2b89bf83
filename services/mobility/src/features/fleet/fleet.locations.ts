import type { Redis } from '@platform/service-kit/redis';
import type { LatLng } from '../../platform/geo';
import type { Tier } from '../../platform/pricing';
import type { Driver, DriverIndexEntry, FleetKind } from './fleet.types';

export interface Telemetry extends LatLng {
  heading: number | null;
  speed_kph: number | null;
  updated_at: string;
}

/**
 * The dispatch index a driver is in: its organization's (`org:<id>`), or the platform's for drivers registered by a
 * platform operator, who serve every partner. A partner's job searches its own index and the platform's, so another
 * organization's drivers are never candidates, however near, and a search reads only the drivers it may offer.
 */
export type IndexScope = 'platform' | `org:${string}`;

export function indexScopeOf(driver: Pick<Driver, 'organizationId' | 'servesAllPartners'>): IndexScope {
  return driver.servesAllPartners ? 'platform' : `org:${driver.organizationId}`;
}

/** The indexes a partner's job may draw drivers from. */
export function scopesServing(partnerId: string): [IndexScope, IndexScope] {
  return [`org:${partnerId}`, 'platform'];
}

export interface NearbyDriver {
  driverId: string;
  meters: number;
  scope: IndexScope;
}

/**
 * Live positions in Redis, all under `${prefix}:fleet:`: GEO sets per fleet kind, tier and scope holding the drivers that
 * are available and free (the dispatch index), and the latest telemetry of every driver in a hash. Postgres stays the
 * truth about who is free and whom a partner may be offered; the index only narrows the search.
 */
export class FleetLocations {
  private readonly density = new SearchDensity();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  indexKey(kind: FleetKind, tier: Tier, scope: IndexScope): string {
    return `${this.prefix}:fleet:geo:${kind}:${tier}:${scope}`;
  }

  private telemetryKey(driverId: string): string {
    return `${this.prefix}:fleet:telemetry:${driverId}`;
  }

  async saveTelemetry(driverId: string, telemetry: Telemetry): Promise<void> {
    await this.redis.hset(this.telemetryKey(driverId), {
      lat: String(telemetry.lat),
      lng: String(telemetry.lng),
      heading: telemetry.heading === null ? '' : String(telemetry.heading),
      speed_kph: telemetry.speed_kph === null ? '' : String(telemetry.speed_kph),
      updated_at: telemetry.updated_at,
    });
  }

  async telemetry(driverId: string): Promise<Telemetry | null> {
    return telemetryOf(await this.redis.hgetall(this.telemetryKey(driverId)));
  }

  /** Several drivers' latest telemetry in one round trip; drivers that never reported are left out. */
  async telemetries(driverIds: readonly string[]): Promise<Map<string, Telemetry>> {
    const found = new Map<string, Telemetry>();
    if (driverIds.length === 0) return found;
    const pipeline = this.redis.pipeline();
    for (const id of driverIds) pipeline.hgetall(this.telemetryKey(id));
    const answers = (await pipeline.exec()) ?? [];
    answers.forEach(([error, hash], index) => {
      const telemetry = error ? null : telemetryOf(hash as Record<string, string>);
      if (telemetry) found.set(driverIds[index]!, telemetry);
    });
    return found;
  }

  /** When each driver last reported a position (its telemetry's `updated_at`), in one round trip; absent when never. */
  async lastSeen(driverIds: string[]): Promise<Map<string, string>> {
    const seen = new Map<string, string>();
    if (driverIds.length === 0) return seen;
    const pipeline = this.redis.pipeline();
    for (const id of driverIds) pipeline.hget(this.telemetryKey(id), 'updated_at');
    const answers = (await pipeline.exec()) ?? [];
    answers.forEach(([error, value], index) => {
      if (!error && typeof value === 'string' && value) seen.set(driverIds[index]!, value);
    });
    return seen;
  }

  async addToIndex(driver: DriverIndexEntry, at: LatLng): Promise<void> {
    await this.redis.geoadd(this.indexKey(driver.kind, driver.tier, indexScopeOf(driver)), at.lng, at.lat, driver.id);
  }

  /** Puts the driver back at its last known position (after a job ends); nothing when no position is known yet. */
  async restoreToIndex(driver: DriverIndexEntry): Promise<void> {
    const last = await this.telemetry(driver.id);
    if (last) await this.addToIndex(driver, last);
  }

  async removeFromIndex(kind: FleetKind, tier: Tier, scope: IndexScope, driverId: string): Promise<void> {
    await this.redis.zrem(this.indexKey(kind, tier, scope), driverId);
  }

  /** Whether any indexed driver a partner's job may be offered is within `radiusMeters` of `at` (one round trip, no sorting). */
  async anyNearby(kind: FleetKind, tier: Tier, partnerId: string, at: LatLng, radiusMeters: number): Promise<boolean> {
    const pipeline = this.redis.pipeline();
    for (const scope of scopesServing(partnerId)) pipeline.geosearch(this.indexKey(kind, tier, scope), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radiusMeters, 'm', 'COUNT', 1, 'ANY');
    const results = (await pipeline.exec()) ?? [];
    return results.some((result) => rowsOf(result).length > 0);
  }

  /**
   * Indexed drivers a partner's job may be offered within `radiusMeters` of `at`, nearest first: the `count` nearest of
   * the partner's index and of the platform's, merged (both searched in one round trip). Searches a small circle first
   * and widens it only when it holds fewer than `count`: Redis sorts every member inside the circle, so in a dense city
   * the small circle is far cheaper, and its `count` nearest are the nearest overall.
   */
  async nearest(kind: FleetKind, tier: Tier, partnerId: string, at: LatLng, radiusMeters: number, count: number): Promise<NearbyDriver[]> {
    let found: NearbyDriver[] = [];
    const area = `${kind}:${tier}:${partnerId}`;
    for (const radius of searchRadii(radiusMeters, this.density.firstRadius(area, count))) {
      const pipeline = this.redis.pipeline();
      const scopes = scopesServing(partnerId);
      for (const scope of scopes) pipeline.geosearch(this.indexKey(kind, tier, scope), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radius, 'm', 'ASC', 'COUNT', count, 'WITHDIST');
      const results = (await pipeline.exec()) ?? [];
      found = scopes
        .flatMap((scope, i) => rowsOf(results[i]).map(([driverId, meters]) => ({ driverId, meters: Number(meters), scope })))
        .sort((a, b) => a.meters - b.meters)
        .slice(0, count);
      if (found.length >= count) {
        this.density.learn(area, count, found[count - 1]!.meters);
        break;
      }
    }
    return found;
  }

  /** The nearest driver of each tier a partner may be offered (or none), widening circles as `nearest` does, one round trip per circle. */
  async nearestOfEachTier(kind: FleetKind, tiers: readonly Tier[], partnerId: string, at: LatLng, radiusMeters: number): Promise<Map<Tier, NearbyDriver>> {
    const nearest = new Map<Tier, NearbyDriver>();
    const scopes = scopesServing(partnerId);
    let open = [...tiers];
    // The smallest circle any of the tiers' densities suggests: a sparse tier's nearest is then found in a wider one.
    const hinted = Math.min(...tiers.map((tier) => this.density.firstRadius(`${kind}:${tier}:${partnerId}`, 1) ?? Infinity));
    for (const [round, radius] of searchRadii(radiusMeters, Number.isFinite(hinted) ? hinted : undefined).entries()) {
      open = open.filter((tier) => !nearest.has(tier));
      if (open.length === 0) break;
      const pipeline = this.redis.pipeline();
      for (const tier of open) {
        for (const scope of scopes) pipeline.geosearch(this.indexKey(kind, tier, scope), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radius, 'm', 'ASC', 'COUNT', 1, 'WITHDIST');
      }
      // The first round also asks whether anybody of each tier is within the whole radius (unsorted, the first found):
      // a tier with nobody is settled then, instead of after every wider circle's round trip.
      const anyone = round === 0 && radius < radiusMeters;
      if (anyone) for (const tier of open) for (const scope of scopes) pipeline.geosearch(this.indexKey(kind, tier, scope), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radiusMeters, 'm', 'COUNT', 1, 'ANY');
      const results = (await pipeline.exec()) ?? [];
      const searched = open;
      if (anyone) open = open.filter((_tier, t) => scopes.some((_scope, s) => rowsOf(results[searched.length * scopes.length + t * scopes.length + s]).length > 0));
      searched.forEach((tier, t) => {
        for (const [s, scope] of scopes.entries()) {
          const first = rowsOf(results[t * scopes.length + s])[0];
          const candidate = first && { driverId: first[0], meters: Number(first[1]), scope };
          const best = nearest.get(tier);
          if (candidate && (!best || candidate.meters < best.meters)) nearest.set(tier, candidate);
        }
      });
    }
    for (const [tier, driver] of nearest) this.density.learn(`${kind}:${tier}:${partnerId}`, 1, driver.meters);
    return nearest;
  }
}

function rowsOf(result: [Error | null, unknown] | undefined): [string, string][] {
  const [error, rows] = result ?? [null, []];
  if (error) throw error;
  return (rows ?? []) as [string, string][];
}

/** The circles a search widens through: the density's first circle when it is smaller than 500 m, then 500 m, 1.5 km and the whole radius. */
export function searchRadii(max: number, first?: number): number[] {
  const radii = first !== undefined && first < 500 ? [first, 500, 1500, max] : [500, 1500, max];
  return [...new Set(radii.map((r) => Math.min(r, max)))];
}

/** How many drivers a first circle is sized to hold on average for `count` wanted: enough that it rarely holds fewer. */
function expectedInFirstCircle(count: number): number {
  return 1.5 * count + 5;
}

/**
 * What recent searches learned of how densely drivers stand where a partner's jobs search, per fleet kind, tier and
 * partner: drivers per square metre, from the distance of the `count`-th nearest of each search that found enough
 * (a moving average). Redis sorts every driver inside a circle, so where a million drivers are indexed the fixed 500 m
 * first circle holds hundreds; a first circle sized to the density holds a few dozen, and one that turns out to hold
 * too few costs one more round trip through the usual wider circles. The nearest found are the nearest overall either
 * way: a circle holding `count` drivers holds the `count` nearest.
 */
export class SearchDensity {
  private readonly perArea = new Map<string, number>();

  constructor(private readonly maxAreas = 10_000) {}

  /** The first circle's radius (m) for `count` drivers in this area, or undefined before anything was learned. */
  firstRadius(area: string, count: number): number | undefined {
    const density = this.perArea.get(area);
    if (!density) return undefined;
    return Math.max(50, Math.ceil(Math.sqrt(expectedInFirstCircle(count) / (Math.PI * density))));
  }

  /** A search in `area` found `count` drivers, the farthest of them `meters` away. */
  learn(area: string, count: number, meters: number): void {
    const density = count / (Math.PI * Math.max(meters, 10) ** 2);
    const previous = this.perArea.get(area);
    if (previous === undefined && this.perArea.size >= this.maxAreas) this.perArea.clear();
    this.perArea.set(area, previous === undefined ? density : previous * 0.8 + density * 0.2);
  }
}

/** A telemetry hash as stored by `saveTelemetry`; null when it holds no position. */
function telemetryOf(hash: Record<string, string>): Telemetry | null {
  if (!hash.lat || !hash.lng) return null;
  const num = (value: string | undefined) => (value ? Number(value) : null);
  return { lat: Number(hash.lat), lng: Number(hash.lng), heading: num(hash.heading), speed_kph: num(hash.speed_kph), updated_at: hash.updated_at ?? '' };
}

/** Live positions and the dispatch index in Redis (under `prefix`). */
export function createFleetLocations(redis: Redis, prefix: string): FleetLocations {
  return new FleetLocations(redis, prefix);
}
