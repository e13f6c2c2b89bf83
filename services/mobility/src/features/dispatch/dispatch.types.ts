import type { Knex } from '@platform/service-kit/db';
import type { LatLng } from '../../platform/geo';
import type { Tier } from '../../platform/pricing';
import type { Driver, FleetKind, Telemetry } from '../fleet';

/** What can be dispatched: rides and deliveries, through the same dispatcher. */
export type JobKind = 'ride' | 'delivery';

export interface Place extends LatLng {
  address?: string | null;
}

export interface DispatchJob {
  kind: JobKind;
  id: string;
  /** The partner (organization) that created the job: only its own drivers and the platform's are offered it. */
  partnerId: string;
  fleetKind: FleetKind;
  tier: Tier;
  pickup: Place;
  dropoff: Place;
}

/** How the dispatcher talks to one kind of job; each call runs in the dispatcher's transaction. */
export interface JobHandler {
  kind: JobKind;
  /** Locks the job and returns it while it is still searching for a driver, else null. */
  lockSearching(trx: Knex.Transaction, id: string): Promise<DispatchJob | null>;
  /** The same answer as `lockSearching`, read without a lock or a transaction (a first look; the locked read decides). */
  findSearching(db: Knex, id: string): Promise<DispatchJob | null>;
  /** The accept transition: assigns the driver (whose position, read before the transaction, it shows) and returns the job as its GET shows it. */
  assign(trx: Knex.Transaction, id: string, driverId: string, telemetry: Telemetry | null): Promise<Record<string, unknown>>;
  /** Nobody accepted within the search timeout; answers when the job was created (its timers' slots). */
  giveUp(trx: Knex.Transaction, id: string): Promise<{ createdAt: Date }>;
}

/** The fleet as dispatch needs it (the fleet service provides it): one job per driver, claimed and released in a transaction. */
export interface DriverPool {
  findDriver(id: string): Promise<Driver | undefined>;
  claimDriver(trx: Knex.Transaction, driverId: string, jobId: string, partnerId: string): Promise<boolean>;
  releaseDriver(trx: Knex.Transaction, driverId: string, jobId: string): Promise<boolean>;
}
