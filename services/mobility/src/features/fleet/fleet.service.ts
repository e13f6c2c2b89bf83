import { NotFoundError } from '@platform/service-kit/errors';
import { isIdOf, newId } from '@platform/service-kit/ids';
import type { AdminClaims } from '@platform/service-kit/admin-auth';
import type { Knex } from '@platform/service-kit/db';
import type { LatLng } from '../../platform/geo';
import { indexScopeOf, type FleetLocations } from './fleet.locations';
import type { FleetRepository } from './fleet.repository';
import type { Driver } from './fleet.types';
import type { z } from 'zod';
import type { driverListResponse, driverProfileResponse, fleetDriverResponse } from './fleet.schema';

/**
 * A driver as the admin API and the driver app show it (`toDriverView` checks it against its response schema): the
 * fields it shows as stored, and the snake_case ones it writes out.
 */
export interface DriverView extends Pick<Driver, 'id' | 'name' | 'phone' | 'kind' | 'tier' | 'vehicle' | 'rating' | 'available'> {
  status: 'active' | 'disabled';
  serves_all_partners: boolean;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A driver as the fleet page shows it: the profile, whether it is online now, when it last reported, and its job. */
export type FleetDriverView = DriverView & Omit<z.input<typeof fleetDriverResponse>, keyof DriverView>;

/** A page of the fleet list (its response schema's type, with the precise driver views). */
export type DriverPage = Omit<z.input<typeof driverListResponse>, 'data'> & { data: FleetDriverView[] };

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
    status: driver.disabledAt ? 'disabled' : 'active',
    serves_all_partners: driver.servesAllPartners,
    disabled_at: driver.disabledAt?.toISOString() ?? null,
    created_at: driver.createdAt.toISOString(),
    updated_at: driver.updatedAt.toISOString(),
  } satisfies z.input<typeof driverProfileResponse>;
}

export interface LocationReport extends LatLng {
  heading?: number;
  speed_kph?: number;
}

/** What registering a driver is given: the profile fields the operator chooses (the rest are set by the service). */
export type NewDriverInput = Pick<Driver, 'name' | 'phone' | 'kind' | 'tier' | 'vehicle'>;

/**
 * What else happens, in the registering transaction, when a driver is registered; its answer is merged into the
 * registration's (the first activation code, wired in operation-handlers.ts from the driver-sessions feature).
 */
export type OnDriverRegistered<Extra extends object = Record<string, unknown>> = (trx: Knex.Transaction, driver: Driver) => Promise<Extra>;

export function createFleetService(db: Knex, repository: FleetRepository, locations: FleetLocations) {
  /** Adds presence (online, last seen) and the current job to drivers, in one Redis round trip and one query. */
  async function withPresence(drivers: Driver[]): Promise<FleetDriverView[]> {
    const [seen, statuses] = await Promise.all([
      locations.lastSeen(drivers.map((driver) => driver.id)),
      repository.jobStatuses(drivers.flatMap((driver) => (driver.currentJobId ? [driver.currentJobId] : []))),
    ]);
    return drivers.map((driver) => ({
      ...toDriverView(driver),
      online: driver.available && !driver.disabledAt,
      last_seen_at: seen.get(driver.id) ?? null,
      current_job: driver.currentJobId
        ? { id: driver.currentJobId, type: driver.currentJobId.startsWith('dlv_') ? 'delivery' : 'ride', status: statuses.get(driver.currentJobId) ?? null }
        : null,
    }));
  }

  return {
    /** A platform operator's drivers serve every partner; any other role's drivers serve only its organization. */
    async registerDriver<Extra extends object>(admin: Pick<AdminClaims, 'org' | 'role'>, input: NewDriverInput, onRegistered: OnDriverRegistered<Extra>): Promise<DriverView & Extra> {
      return db.transaction(async (trx) => {
        const driver = await repository.insertDriver(trx, { id: newId('drv'), organizationId: admin.org, servesAllPartners: admin.role === 'platform_operator', ...input });
        return { ...toDriverView(driver), ...(await onRegistered(trx, driver)) };
      });
    },

    /** One of the organization's drivers; another organization's, or an id of another shape, is a 404. */
    async getDriver(organizationId: string, id: string): Promise<FleetDriverView> {
      const driver = isIdOf('drv', id) ? await repository.findDriver(db, id) : undefined;
      if (!driver || driver.organizationId !== organizationId) throw new NotFoundError('Driver not found');
      return (await withPresence([driver]))[0]!;
    },

    async listDrivers(organizationId: string, page: { limit: number; cursor?: string }): Promise<DriverPage> {
      const rows = await repository.pageDrivers(organizationId, page.limit, page.cursor);
      const data = await withPresence(rows.slice(0, page.limit));
      const hasMore = rows.length > page.limit;
      return { data, has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
    },

    /**
     * Disables one of the organization's drivers: offline at once and out of the dispatch index; the driver app refuses
     * its token from the next request on and dispatch never claims it. Another organization's driver is a 404.
     */
    async disableDriver(organizationId: string, id: string): Promise<DriverView> {
      const driver = isIdOf('drv', id) ? await repository.disableDriver(organizationId, id) : undefined;
      if (!driver) throw new NotFoundError('Driver not found');
      await locations.removeFromIndex(driver.kind, driver.tier, indexScopeOf(driver), driver.id);
      return toDriverView(driver);
    },

    /** Going offline takes the driver out of the dispatch index at once; a job already held is kept. */
    async setAvailability(driver: Driver, available: boolean): Promise<DriverView> {
      const updated = await repository.setDriverAvailability(driver.id, available);
      if (available && !updated.currentJobId && !updated.disabledAt) await locations.restoreToIndex(updated);
      else await locations.removeFromIndex(updated.kind, updated.tier, indexScopeOf(updated), updated.id);
      return toDriverView(updated);
    },

    async reportLocation(driver: Driver, report: LocationReport) {
      const telemetry = { lat: report.lat, lng: report.lng, heading: report.heading ?? null, speed_kph: report.speed_kph ?? null, updated_at: new Date().toISOString() };
      await locations.saveTelemetry(driver.id, telemetry);
      if (driver.available && !driver.currentJobId && !driver.disabledAt) await locations.addToIndex(driver, report);
      return telemetry;
    },

    /** One driver, read on `conn` (the caller's transaction when it has one). */
    async findDriver(id: string, conn: Knex = db): Promise<Driver | undefined> {
      return repository.findDriver(conn, id);
    },

    /** Several drivers by id in one query (a list of jobs shows each one's assignee). */
    async findDrivers(ids: readonly string[], conn: Knex = db): Promise<Map<string, Driver>> {
      return repository.findDrivers(conn, ids);
    },

    /**
     * Takes a free, available, enabled driver for a partner's job in the caller's transaction: only the partner's own
     * drivers or the platform's qualify. False when busy, offline, disabled, another organization's or taken.
     */
    claimDriver(trx: Knex.Transaction, driverId: string, jobId: string, partnerId: string): Promise<boolean> {
      return repository.claimDriver(trx, driverId, jobId, partnerId);
    },

    /** Frees the driver in the caller's transaction if (and only if) it still holds this job. */
    releaseDriver(trx: Knex.Transaction, driverId: string, jobId: string): Promise<boolean> {
      return repository.releaseDriver(trx, driverId, jobId);
    },
  };
}

export type FleetService = ReturnType<typeof createFleetService>;
