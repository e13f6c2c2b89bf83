import type { Knex } from '@platform/service-kit/db';
import type { Tier } from '../../platform/pricing';
import type { Driver, FleetKind } from './fleet.types';

export interface DriverRow {
  id: string;
  organization_id: string;
  name: string;
  phone: string;
  kind: FleetKind;
  tier: Tier;
  vehicle_make: string;
  vehicle_model: string;
  vehicle_plate: string;
  vehicle_color: string;
  rating: number;
  available: boolean;
  serves_all_partners: boolean;
  disabled_at: Date | null;
  current_job_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export function toDriver(row: DriverRow): Driver {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    phone: row.phone,
    kind: row.kind,
    tier: row.tier,
    vehicle: { make: row.vehicle_make, model: row.vehicle_model, plate: row.vehicle_plate, color: row.vehicle_color },
    rating: Number(row.rating),
    available: row.available,
    servesAllPartners: row.serves_all_partners,
    disabledAt: row.disabled_at,
    currentJobId: row.current_job_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type NewDriver = Omit<Driver, 'rating' | 'available' | 'disabledAt' | 'currentJobId' | 'createdAt' | 'updatedAt'>;

/** The drivers table (and the job statuses the fleet page shows); the job life cycles claim and release drivers in their own transaction (`trx`). */
export interface FleetRepository {
  insertDriver(trx: Knex, driver: NewDriver): Promise<Driver>;
  findDriver(conn: Knex, id: string): Promise<Driver | undefined>;
  /** Several drivers in one query, by id (absent ids are left out). */
  findDrivers(conn: Knex, ids: readonly string[]): Promise<Map<string, Driver>>;
  /** Newest first; `afterId` is the last driver of the previous page. Reads `limit + 1` rows so the caller knows if more follow. */
  pageDrivers(organizationId: string, limit: number, afterId?: string): Promise<Driver[]>;
  /** Disables one of the organization's drivers (again: no change) and takes it offline; undefined when it is not theirs. */
  disableDriver(organizationId: string, id: string): Promise<Driver | undefined>;
  setDriverAvailability(id: string, available: boolean): Promise<Driver>;
  /**
   * The atomic claim that keeps a driver to one job: only a free, available, enabled driver serving the job's partner is taken. Two dispatchers racing
   * for one driver both run this UPDATE; Postgres re-checks the WHERE after the first commits, so one of them gets 0 rows.
   */
  claimDriver(trx: Knex, driverId: string, jobId: string, partnerId: string): Promise<boolean>;
  /** Frees the driver if (and only if) it still holds this job. */
  releaseDriver(trx: Knex, driverId: string, jobId: string): Promise<boolean>;
  /** The status of each job named (rides and deliveries), for the fleet page's "on job" column. */
  jobStatuses(jobIds: string[]): Promise<Map<string, string>>;
}

/** The Postgres `drivers` table. */
export function createFleetRepository(db: Knex): FleetRepository {
  return {
    async insertDriver(trx, driver) {
      const [row] = await trx('drivers')
        .insert({
          id: driver.id,
          organization_id: driver.organizationId,
          serves_all_partners: driver.servesAllPartners,
          name: driver.name,
          phone: driver.phone,
          kind: driver.kind,
          tier: driver.tier,
          vehicle_make: driver.vehicle.make,
          vehicle_model: driver.vehicle.model,
          vehicle_plate: driver.vehicle.plate,
          vehicle_color: driver.vehicle.color,
        })
        .returning('*');
      return toDriver(row as DriverRow);
    },
    async findDriver(conn, id) {
      const row = (await conn('drivers').where({ id }).first()) as DriverRow | undefined;
      return row ? toDriver(row) : undefined;
    },
    async findDrivers(conn, ids) {
      if (ids.length === 0) return new Map();
      const rows = (await conn('drivers').whereIn('id', [...ids])) as DriverRow[];
      return new Map(rows.map((row) => [row.id, toDriver(row)]));
    },
    async pageDrivers(organizationId, limit, afterId) {
      const query = db('drivers').where({ organization_id: organizationId });
      if (afterId) {
        // Row-value comparison on the stored values: exact to the microsecond, stable among drivers registered together.
        query.whereRaw('(created_at, id) < (select created_at, id from drivers where organization_id = ? and id = ?)', [organizationId, afterId]);
      }
      const rows = (await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1)) as DriverRow[];
      return rows.map(toDriver);
    },
    async disableDriver(organizationId, id) {
      const [row] = await db('drivers')
        .where({ id, organization_id: organizationId })
        .update({ disabled_at: db.raw('coalesce(disabled_at, now())'), available: false, updated_at: db.fn.now() })
        .returning('*');
      return row ? toDriver(row as DriverRow) : undefined;
    },
    async setDriverAvailability(id, available) {
      const [row] = await db('drivers').where({ id }).update({ available, updated_at: db.fn.now() }).returning('*');
      return toDriver(row as DriverRow);
    },
    async claimDriver(trx, driverId, jobId, partnerId) {
      const count = await trx('drivers')
        .where({ id: driverId, available: true })
        .andWhere((serves) => serves.where({ organization_id: partnerId }).orWhere({ serves_all_partners: true })) // never another partner's driver
        .whereNull('current_job_id')
        .whereNull('disabled_at')
        .update({ current_job_id: jobId, updated_at: trx.fn.now() });
      return count === 1;
    },
    async releaseDriver(trx, driverId, jobId) {
      const count = await trx('drivers').where({ id: driverId, current_job_id: jobId }).update({ current_job_id: null, updated_at: trx.fn.now() });
      return count === 1;
    },
    async jobStatuses(jobIds) {
      if (jobIds.length === 0) return new Map();
      const rows = (await db
        .select('id', 'status')
        .from('rides')
        .whereIn('id', jobIds)
        .unionAll((union) => union.select('id', 'status').from('deliveries').whereIn('id', jobIds))) as { id: string; status: string }[];
      return new Map(rows.map((row) => [row.id, row.status]));
    },
  };
}
