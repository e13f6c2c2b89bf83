import type { Knex } from '@platform/service-kit';
import type { LatLng } from '../../geo';
import type { Tier } from '../../pricing';
import type { FleetKind } from '../fleet/fleet.repository';

/** What can be dispatched: rides now, deliveries (issue 6) through the same dispatcher. */
export type JobKind = 'ride' | 'delivery';

export interface Place extends LatLng {
  address?: string | null;
}

export interface DispatchJob {
  kind: JobKind;
  id: string;
  fleetKind: FleetKind;
  tier: Tier;
  pickup: Place;
  dropoff: Place;
}

/** How the dispatcher talks to one kind of job; each call runs in the dispatcher's transaction. */
export interface JobAdapter {
  kind: JobKind;
  /** Locks the job and returns it while it is still searching for a driver, else null. */
  lockSearching(trx: Knex.Transaction, id: string): Promise<DispatchJob | null>;
  /** The accept transition: assigns the driver and returns the job as its GET shows it. */
  assign(trx: Knex.Transaction, id: string, driverId: string): Promise<Record<string, unknown>>;
  /** Nobody accepted within the search timeout. */
  giveUp(trx: Knex.Transaction, id: string): Promise<void>;
}
