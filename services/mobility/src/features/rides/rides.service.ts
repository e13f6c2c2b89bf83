import { ValidationError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { Page } from '@platform/service-kit/pagination';
import type { PartnerAccount } from '../api-keys';
import { greatCircleMeters } from '../../platform/geo';
import { fareFor, tripMeters, type Tier } from '../../platform/pricing';
import type { EstimateService } from '../estimates';
import type { Driver } from '../fleet';
import { createAndDispatch, type JobCreationDeps, jobListFilter, type JobListQuery, placeColumns, type PlaceInput } from '../jobs';
import type { RideLifecycle } from './ride-lifecycle';
import type { CancelledBy, RideAction } from './ride-status';
import { presentRide, type RideView } from './ride.presenter';
import type { RideRow, RidesRepository } from './rides.repository';

export interface CreateRideInput {
  pickup: PlaceInput;
  dropoff: PlaceInput;
  tier: Tier;
  passenger: { name: string; phone: string };
  estimate_id?: string;
  event_pass?: string;
}

/** How far a ride's pickup or drop-off may be from its estimate's and still use the estimate's fare. */
const ESTIMATE_MATCH_METERS = 200;

/** The dispatcher only starts the search; it moves the ride itself through the ride's dispatch handler. */
export interface RideServiceDeps extends JobCreationDeps {
  repository: RidesRepository;
  lifecycle: RideLifecycle;
  estimates: Pick<EstimateService, 'findEstimate'>;
  /** Event passes (wired in services.ts): reserves a pass's coverage in the ride's transaction, or refuses with a 422. */
  passes?: RidePasses;
}

export interface RidePasses {
  reserveForRide(
    trx: Knex.Transaction,
    ride: { partnerId: string; code: string; rideId: string; tier: Tier; pickup: PlaceInput; dropoff: PlaceInput; fare: { amount: number; currency: string } },
  ): Promise<{ passId: string; covered: number }>;
}

export function createRideService({ db, repository, lifecycle, dispatcher, estimates, passes, logger }: RideServiceDeps) {
  /** Cancels (by anyone) in the caller's transaction: ends the job, so open offers close and the driver is freed. */
  function cancel(trx: Knex.Transaction, ride: RideRow, by: CancelledBy) {
    return lifecycle.endJob(trx, ride, 'cancel', { cancelled_by: by });
  }

  async function fareOf(partnerId: string, input: CreateRideInput, meters: number) {
    if (!input.estimate_id) return { fare: fareFor(input.tier, meters), estimateId: null };
    const estimate = await estimates.findEstimate(partnerId, input.estimate_id);
    const problem = !estimate
      ? 'estimate not found'
      : estimate.expiresAt.getTime() < Date.now()
        ? 'estimate has expired; request a new one'
        : greatCircleMeters(estimate.pickup, input.pickup) > ESTIMATE_MATCH_METERS || greatCircleMeters(estimate.dropoff, input.dropoff) > ESTIMATE_MATCH_METERS
          ? 'estimate was made for another pickup or drop-off'
          : undefined;
    if (problem || !estimate) throw new ValidationError([{ path: 'estimate_id', message: problem ?? 'estimate not found' }]);
    return { fare: estimate.fares[input.tier], estimateId: estimate.id };
  }

  function reserveCoverage(trx: Knex.Transaction, ride: Parameters<RidePasses['reserveForRide']>[1]) {
    if (!passes) throw new ValidationError([{ path: 'event_pass', message: 'event passes are not available' }]);
    return passes.reserveForRide(trx, ride);
  }

  return {
    async createRide(account: PartnerAccount, input: CreateRideInput, idempotencyKey?: string): Promise<{ status: number; body: RideView; replayed: boolean }> {
      const { partnerId, livemode } = account;
      if (!livemode && input.event_pass) throw new ValidationError([{ path: 'event_pass', message: 'event passes have no test mode; send the ride without one' }]);
      const search = { fleetKind: 'driver' as const, tier: input.tier, pickup: input.pickup };
      const request = { kind: 'ride' as const, partnerId, livemode, scope: 'POST /api/v1/rides', idempotencyKey, body: input, search };
      return createAndDispatch({ db, dispatcher, logger }, request, async (trx) => {
        // Inside the idempotent unit: a replay answers the first result even after its estimate expired.
        const { fare, estimateId } = await fareOf(partnerId, input, tripMeters(input.pickup, input.dropoff));
        const id = newId('ride');
        // The pass's coverage is reserved in this transaction: a refused pass rolls the ride back with it.
        const coverage = input.event_pass ? await reserveCoverage(trx, { partnerId, code: input.event_pass, rideId: id, tier: input.tier, pickup: input.pickup, dropoff: input.dropoff, fare }) : undefined;
        const ride = await repository.insert(trx, {
          id,
          event_pass_id: coverage?.passId ?? null,
          pass_covered_amount: coverage?.covered ?? null,
          partner_id: partnerId,
          livemode,
          tier: input.tier,
          ...placeColumns(input),
          fare_amount: fare.amount,
          fare_currency: fare.currency,
          estimate_id: estimateId,
          passenger_name: input.passenger.name,
          passenger_phone: input.passenger.phone,
        });
        return presentRide(ride, undefined, null);
      });
    },

    async getRide({ partnerId, livemode }: PartnerAccount, id: string): Promise<RideView> {
      return lifecycle.get({ id, partnerId, livemode });
    },

    /** The partner's rides, newest first. */
    async listRides(account: PartnerAccount, query: JobListQuery): Promise<Page<RideView>> {
      return lifecycle.page(await repository.list(db, jobListFilter(account, query)), query.limit);
    },

    async cancelByPartner({ partnerId, livemode }: PartnerAccount, id: string): Promise<RideView> {
      return lifecycle.commit(async (trx) => cancel(trx, await lifecycle.lock(trx, { id, partnerId, livemode }), 'partner'));
    },

    /** A move by the assigned driver: arrive, start, complete or cancel; completing or cancelling frees the driver. */
    async driverMove(driver: Driver, id: string, action: Extract<RideAction, 'arrive' | 'start' | 'complete' | 'cancel'>): Promise<RideView> {
      const telemetry = await lifecycle.telemetryOf(driver.id);
      return lifecycle.commit(async (trx) => {
        const ride = await lifecycle.lock(trx, { id, driverId: driver.id });
        if (action === 'cancel') return cancel(trx, ride, 'driver');
        if (action === 'complete') return lifecycle.endJob(trx, ride, action, {});
        return { view: await lifecycle.changeStatus(trx, ride, action, {}, telemetry), freed: [] };
      });
    },
  };
}

export type RideService = ReturnType<typeof createRideService>;
