import type { Redis } from '@platform/service-kit';
import type { LatLng } from '../../geo';
import type { Tier } from '../../pricing';
import type { FleetKind } from './fleet.types';

export interface Telemetry extends LatLng {
  heading: number | null;
  speed_kph: number | null;
  updated_at: string;
}

export interface NearbyDriver {
  driverId: string;
  meters: number;
}

/**
 * Live positions in Redis, all under `${prefix}:fleet:`: a GEO set per fleet kind and tier holding the drivers that are
 * available and free (the dispatch index), and the latest telemetry of every driver in a hash. Postgres stays the truth
 * about who is free; the index only narrows the search.
 */
export class FleetLocations {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  indexKey(kind: FleetKind, tier: Tier): string {
    return `${this.prefix}:fleet:geo:${kind}:${tier}`;
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
    const hash = await this.redis.hgetall(this.telemetryKey(driverId));
    if (!hash.lat || !hash.lng) return null;
    const num = (value: string | undefined) => (value ? Number(value) : null);
    return { lat: Number(hash.lat), lng: Number(hash.lng), heading: num(hash.heading), speed_kph: num(hash.speed_kph), updated_at: hash.updated_at ?? '' };
  }

  async addToIndex(kind: FleetKind, tier: Tier, driverId: string, at: LatLng): Promise<void> {
    await this.redis.geoadd(this.indexKey(kind, tier), at.lng, at.lat, driverId);
  }

  /** Puts the driver back at its last known position (after a job ends); nothing when no position is known yet. */
  async restoreToIndex(kind: FleetKind, tier: Tier, driverId: string): Promise<void> {
    const last = await this.telemetry(driverId);
    if (last) await this.addToIndex(kind, tier, driverId, last);
  }

  async removeFromIndex(kind: FleetKind, tier: Tier, driverId: string): Promise<void> {
    await this.redis.zrem(this.indexKey(kind, tier), driverId);
  }

  /**
   * Indexed drivers within `radiusMeters` of `at`, nearest first. Searches a small circle first and widens it only when
   * it holds fewer than `count`: Redis sorts every member inside the circle, so in a dense city the small circle is far
   * cheaper, and its `count` nearest are the nearest overall.
   */
  async nearest(kind: FleetKind, tier: Tier, at: LatLng, radiusMeters: number, count: number): Promise<NearbyDriver[]> {
    let found: NearbyDriver[] = [];
    for (const radius of searchRadii(radiusMeters)) {
      const rows = (await this.redis.geosearch(this.indexKey(kind, tier), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radius, 'm', 'ASC', 'COUNT', count, 'WITHDIST')) as [string, string][];
      found = rows.map(([driverId, meters]) => ({ driverId, meters: Number(meters) }));
      if (found.length >= count) break;
    }
    return found;
  }

  /** The nearest indexed driver of each tier (or none), widening circles as `nearest` does, one round trip per circle. */
  async nearestOfEachTier(kind: FleetKind, tiers: readonly Tier[], at: LatLng, radiusMeters: number): Promise<Map<Tier, NearbyDriver>> {
    const nearest = new Map<Tier, NearbyDriver>();
    for (const radius of searchRadii(radiusMeters)) {
      const open = tiers.filter((tier) => !nearest.has(tier));
      if (open.length === 0) break;
      const pipeline = this.redis.pipeline();
      for (const tier of open) pipeline.geosearch(this.indexKey(kind, tier), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radius, 'm', 'ASC', 'COUNT', 1, 'WITHDIST');
      const results = (await pipeline.exec()) ?? [];
      open.forEach((tier, i) => {
        const [error, rows] = results[i] ?? [];
        if (error) throw error;
        const first = (rows as [string, string][])[0];
        if (first) nearest.set(tier, { driverId: first[0], meters: Number(first[1]) });
      });
    }
    return nearest;
  }
}

function searchRadii(max: number): number[] {
  return [...new Set([500, 1500, max].map((r) => Math.min(r, max)))];
}
