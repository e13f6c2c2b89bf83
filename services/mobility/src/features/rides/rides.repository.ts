import type { Knex } from '@platform/service-kit';
import type { Tier } from '../../pricing';
import type { JobPlaceColumns } from '../jobs/job.types';
import { findJobRow, insertJobRow, listJobRows, updateJobStatus, type JobListFilter, type JobLookup, type RowLock } from '../jobs/job-rows';
import type { CancelledBy, RideStatus } from './ride-status';

/** The row; its pick-up and drop-off columns are the ones every job table has. */
export interface RideRow extends JobPlaceColumns {
  id: string;
  partner_id: string;
  status: RideStatus;
  tier: Tier;
  fare_amount: number;
  fare_currency: string;
  estimate_id: string | null;
  passenger_name: string;
  passenger_phone: string;
  driver_id: string | null;
  cancelled_by: CancelledBy | null;
  /** The event pass covering part of the fare, and how much of it (minor units). */
  event_pass_id: string | null;
  pass_covered_amount: number | null;
  /** false: a test-mode ride (sandbox). */
  livemode: boolean;
  sequence: number;
  created_at: Date;
  updated_at: Date;
}

export type NewRideRow = Omit<RideRow, 'driver_id' | 'cancelled_by' | 'sequence' | 'created_at' | 'updated_at' | 'status' | 'event_pass_id' | 'pass_covered_amount'> &
  Partial<Pick<RideRow, 'event_pass_id' | 'pass_covered_amount'>>;

export function insertRide(db: Knex, ride: NewRideRow): Promise<RideRow> {
  return insertJobRow<RideRow>(db, 'rides', ride);
}

export type RideLookup = JobLookup<'driverId'>;

/** One ride, optionally only if it belongs to the partner (in a mode) or is assigned to the driver; `forUpdate` locks the row. */
export function findRide(db: Knex, lookup: RideLookup, options?: RowLock): Promise<RideRow | undefined> {
  return findJobRow<RideRow>(db, 'rides', lookup.id, { partner_id: lookup.partnerId, livemode: lookup.livemode, driver_id: lookup.driverId }, options);
}

/** Writes a status change and bumps the ride's event sequence. */
export function updateRideStatus(trx: Knex.Transaction, id: string, change: { status: RideStatus; driver_id?: string; cancelled_by?: CancelledBy }): Promise<RideRow> {
  return updateJobStatus<RideRow>(trx, 'rides', id, change);
}

/** `limit + 1` of the partner's rides, newest first (undefined when the cursor is not one of theirs). */
export function listRides(db: Knex, filter: JobListFilter): Promise<RideRow[] | undefined> {
  return listJobRows<RideRow>(db, 'rides', filter);
}
