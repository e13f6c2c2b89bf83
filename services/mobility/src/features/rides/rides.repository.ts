import type { Tier } from '../../platform/pricing';
import { createKnexJobRepository, type JobLookup, type JobPlaceColumns, type JobRepository } from '../jobs';
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

export type RideLookup = JobLookup<'driverId'>;

/** A status change: the new status and the columns it may set besides it. */
export type RideStatusChange = { status: RideStatus; driver_id?: string; cancelled_by?: CancelledBy };

/** The rides table (a job table): insert, find (by partner, mode or driver; optionally locked), status change, list. */
export type RidesRepository = JobRepository<RideRow, NewRideRow, RideLookup, RideStatusChange>;

/** The Postgres rides table. */
export function createKnexRidesRepository(): RidesRepository {
  return createKnexJobRepository({
    table: 'rides',
    scopeOf: (lookup: RideLookup) => ({ partner_id: lookup.partnerId, livemode: lookup.livemode, driver_id: lookup.driverId }),
  });
}
