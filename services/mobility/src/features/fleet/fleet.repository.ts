import type { Knex } from '@platform/service-kit';
import type { Tier } from '../../pricing';
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
    currentJobId: row.current_job_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type NewDriver = Omit<Driver, 'rating' | 'available' | 'currentJobId' | 'createdAt' | 'updatedAt'>;

export async function insertDriver(db: Knex, driver: NewDriver): Promise<Driver> {
  const [row] = await db('drivers')
    .insert({
      id: driver.id,
      organization_id: driver.organizationId,
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
}

export async function findDriver(db: Knex, id: string): Promise<Driver | undefined> {
  const row = (await db('drivers').where({ id }).first()) as DriverRow | undefined;
  return row ? toDriver(row) : undefined;
}

export async function setDriverAvailability(db: Knex, id: string, available: boolean): Promise<Driver> {
  const [row] = await db('drivers').where({ id }).update({ available, updated_at: db.fn.now() }).returning('*');
  return toDriver(row as DriverRow);
}

/**
 * The atomic claim that keeps a driver to one job: only a free, available driver is taken. Two dispatchers racing
 * for one driver both run this UPDATE; Postgres re-checks the WHERE after the first commits, so one of them gets 0 rows.
 */
export async function claimDriver(db: Knex, driverId: string, jobId: string): Promise<boolean> {
  const count = await db('drivers')
    .where({ id: driverId, available: true })
    .whereNull('current_job_id')
    .update({ current_job_id: jobId, updated_at: db.fn.now() });
  return count === 1;
}

/** Frees the driver if (and only if) it still holds this job. */
export async function releaseDriver(db: Knex, driverId: string, jobId: string): Promise<boolean> {
  const count = await db('drivers').where({ id: driverId, current_job_id: jobId }).update({ current_job_id: null, updated_at: db.fn.now() });
  return count === 1;
}
