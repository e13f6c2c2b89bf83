import { newId, type Knex } from '@platform/service-kit';
import type { LatLng } from '../../geo';
import type { Tier } from '../../pricing';
import type { FleetLocations } from './fleet.locations';
import { claimDriver, findDriver, insertDriver, releaseDriver, setDriverAvailability } from './fleet.repository';
import type { Driver, FleetKind, Vehicle } from './fleet.types';

export interface DriverView {
  id: string;
  name: string;
  phone: string;
  kind: FleetKind;
  tier: Tier;
  vehicle: Vehicle;
  rating: number;
  available: boolean;
  created_at: string;
  updated_at: string;
}

export function toDriverView(driver: Driver): DriverView {
  return {
    id: driver.id,
    name: driver.name,
    phone: driver.phone,
    kind: driver.kind,
    tier: driver.tier,
    vehicle: driver.vehicle,
    rating: driver.rating,
    available: driver.available,
    created_at: driver.createdAt.toISOString(),
    updated_at: driver.updatedAt.toISOString(),
  };
}

export interface LocationReport extends LatLng {
  heading?: number;
  speed_kph?: number;
}

export function createFleetService(db: Knex, locations: FleetLocations) {
  return {
    async registerDriver(organizationId: string, input: { name: string; phone: string; kind: FleetKind; tier: Tier; vehicle: Vehicle }): Promise<DriverView> {
      return toDriverView(await insertDriver(db, { id: newId('drv'), organizationId, ...input }));
    },

    /** Going offline takes the driver out of the dispatch index at once; a job already held is kept. */
    async setAvailability(driver: Driver, available: boolean): Promise<DriverView> {
      const updated = await setDriverAvailability(db, driver.id, available);
      if (available && !updated.currentJobId) await locations.restoreToIndex(updated.kind, updated.tier, updated.id);
      else await locations.removeFromIndex(updated.kind, updated.tier, updated.id);
      return toDriverView(updated);
    },

    async reportLocation(driver: Driver, report: LocationReport) {
      const telemetry = { lat: report.lat, lng: report.lng, heading: report.heading ?? null, speed_kph: report.speed_kph ?? null, updated_at: new Date().toISOString() };
      await locations.saveTelemetry(driver.id, telemetry);
      if (driver.available && !driver.currentJobId) await locations.addToIndex(driver.kind, driver.tier, driver.id, report);
      return telemetry;
    },

    /** One driver, read on `conn` (the caller's transaction when it has one). */
    async findDriver(id: string, conn: Knex = db): Promise<Driver | undefined> {
      return findDriver(conn, id);
    },

    /** Takes a free, available driver for a job in the caller's transaction; false when busy, offline or taken. */
    claimDriver(trx: Knex.Transaction, driverId: string, jobId: string): Promise<boolean> {
      return claimDriver(trx, driverId, jobId);
    },

    /** Frees the driver in the caller's transaction if (and only if) it still holds this job. */
    releaseDriver(trx: Knex.Transaction, driverId: string, jobId: string): Promise<boolean> {
      return releaseDriver(trx, driverId, jobId);
    },
  };
}

export type FleetService = ReturnType<typeof createFleetService>;
