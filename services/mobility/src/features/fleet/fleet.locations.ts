import type { Redis } from '@platform/service-kit';
import type { LatLng } from '../../geo';
import type { Tier } from '../../pricing';
import type { FleetKind } from './fleet.repository';

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

  /** Indexed drivers within `radiusMeters` of `at`, nearest first. */
  async nearest(kind: FleetKind, tier: Tier, at: LatLng, radiusMeters: number, count: number): Promise<NearbyDriver[]> {
    const rows = (await this.redis.geosearch(this.indexKey(kind, tier), 'FROMLONLAT', at.lng, at.lat, 'BYRADIUS', radiusMeters, 'm', 'ASC', 'COUNT', count, 'WITHDIST')) as [string, string][];
    return rows.map(([driverId, meters]) => ({ driverId, meters: Number(meters) }));
  }
}
