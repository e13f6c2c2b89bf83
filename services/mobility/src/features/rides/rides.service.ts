import { NotFoundError, ValidationError, newId, type Knex, type Logger } from '@platform/service-kit';
import { greatCircleMeters, type LatLng } from '../../geo';
import { fareFor, type Tier } from '../../pricing';
import type { Dispatcher } from '../dispatch/dispatch.service';
import type { DispatchJob, JobAdapter } from '../dispatch/dispatch.types';
import { findEstimate } from '../estimates/estimates.repository';
import { tripMeters } from '../estimates/estimates.service';
import type { FleetLocations } from '../fleet/fleet.locations';
import { releaseDriver, type Driver } from '../fleet/fleet.repository';
import { runIdempotent } from '../idempotency/idempotency.service';
import { appendOutboxEvent } from '../outbox/outbox.repository';
import { nextRideStatus, rideEventType, type CancelledBy, type RideAction } from './ride-status';
import { presentRide, type RideView } from './ride.presenter';
import { findDriverRow, findRide, insertRide, updateRideStatus, type RideLookup, type RideRow } from './rides.repository';

export interface PlaceInput extends LatLng {
  address?: string;
}

export interface CreateRideInput {
  pickup: PlaceInput;
  dropoff: PlaceInput;
  tier: Tier;
  passenger: { name: string; phone: string };
  estimate_id?: string;
}

/** How far a ride's pickup or drop-off may be from its estimate's and still use the estimate's fare. */
const ESTIMATE_MATCH_METERS = 200;

export function createRideService(db: Knex, locations: FleetLocations, dispatcher: Dispatcher, logger: Logger) {
  async function view(trx: Knex, ride: RideRow): Promise<RideView> {
    const driver = ride.driver_id ? await findDriverRow(trx, ride.driver_id) : undefined;
    const telemetry = ride.driver_id ? await locations.telemetry(ride.driver_id) : null;
    return presentRide(ride, driver, telemetry);
  }

  async function lockRide(trx: Knex.Transaction, lookup: RideLookup): Promise<RideRow> {
    const ride = await findRide(trx, lookup, { forUpdate: true });
    if (!ride) throw new NotFoundError('Ride not found');
    return ride;
  }

  /** Every status change goes through here: the table decides, the outbox event commits with the change. */
  async function changeStatus(trx: Knex.Transaction, ride: RideRow, action: RideAction, extra: { driver_id?: string; cancelled_by?: CancelledBy } = {}): Promise<RideView> {
    const status = nextRideStatus(ride.status, action);
    const updated = await updateRideStatus(trx, ride.id, { status, ...extra });
    const data = await view(trx, updated);
    await appendOutboxEvent(trx, { partnerId: updated.partner_id, type: rideEventType(status), objectType: 'ride', objectId: updated.id, sequence: updated.sequence, data });
    return data;
  }

  /** Cancels (by anyone) in the caller's transaction; returns the drivers to put back into the dispatch index. */
  async function cancel(trx: Knex.Transaction, ride: RideRow, by: CancelledBy): Promise<{ view: RideView; freed: string[] }> {
    const result = await changeStatus(trx, ride, 'cancel', { cancelled_by: by });
    const freed = await dispatcher.withdrawOffers(trx, ride.id);
    if (ride.driver_id && (await releaseDriver(trx, ride.driver_id, ride.id))) freed.push(ride.driver_id);
    return { view: result, freed };
  }

  async function fareOf(partnerId: string, input: CreateRideInput, meters: number) {
    if (!input.estimate_id) return { fare: fareFor(input.tier, meters), estimateId: null };
    const estimate = await findEstimate(db, partnerId, input.estimate_id);
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

  const adapter: JobAdapter = {
    kind: 'ride',
    async lockSearching(trx, id) {
      const ride = await findRide(trx, { id }, { forUpdate: true });
      if (!ride || ride.status !== 'pending') return null;
      return toDispatchJob(ride);
    },
    async assign(trx, id, driverId) {
      return changeStatus(trx, await lockRide(trx, { id }), 'accept', { driver_id: driverId });
    },
    async giveUp(trx, id) {
      await changeStatus(trx, await lockRide(trx, { id }), 'time_out');
    },
  };
  dispatcher.register(adapter);

  async function startDispatch(rideId: string): Promise<void> {
    try {
      await dispatcher.offerNext('ride', rideId);
    } catch (err) {
      logger.warn({ err, rideId }, 'first dispatch attempt failed; the retry timer will search again');
    }
  }

  return {
    async createRide(partnerId: string, input: CreateRideInput, idempotencyKey?: string): Promise<{ status: number; body: RideView; replayed: boolean }> {
      const create = async (trx: Knex.Transaction) => {
        // Inside the idempotent unit: a replay answers the first result even after its estimate expired.
        const { fare, estimateId } = await fareOf(partnerId, input, tripMeters(input.pickup, input.dropoff));
        const ride = await insertRide(trx, {
          id: newId('ride'),
          partner_id: partnerId,
          tier: input.tier,
          pickup_lat: input.pickup.lat,
          pickup_lng: input.pickup.lng,
          pickup_address: input.pickup.address ?? null,
          dropoff_lat: input.dropoff.lat,
          dropoff_lng: input.dropoff.lng,
          dropoff_address: input.dropoff.address ?? null,
          fare_amount: fare.amount,
          fare_currency: fare.currency,
          estimate_id: estimateId,
          passenger_name: input.passenger.name,
          passenger_phone: input.passenger.phone,
        });
        await dispatcher.scheduleSearch('ride', ride.id);
        return { status: 201, body: presentRide(ride, undefined, null) };
      };
      const answer = idempotencyKey
        ? await runIdempotent(db, { partnerId, scope: 'POST /api/v1/rides', key: idempotencyKey, body: input }, create)
        : { ...(await db.transaction(create)), replayed: false };
      if (!answer.replayed) await startDispatch(answer.body.id);
      return answer;
    },

    async getRide(partnerId: string, id: string): Promise<RideView> {
      const ride = await findRide(db, { id, partnerId });
      if (!ride) throw new NotFoundError('Ride not found');
      return view(db, ride);
    },

    async cancelByPartner(partnerId: string, id: string): Promise<RideView> {
      const { view: result, freed } = await db.transaction(async (trx) => cancel(trx, await lockRide(trx, { id, partnerId }), 'partner'));
      for (const driverId of freed) await dispatcher.afterDriverFreed(driverId);
      return result;
    },

    /** A move by the assigned driver: arrive, start, complete or cancel. */
    async driverMove(driver: Driver, id: string, action: Extract<RideAction, 'arrive' | 'start' | 'complete' | 'cancel'>): Promise<RideView> {
      const { view: result, freed } = await db.transaction(async (trx) => {
        const ride = await lockRide(trx, { id, driverId: driver.id });
        if (action === 'cancel') return cancel(trx, ride, 'driver');
        const changed = await changeStatus(trx, ride, action);
        const ended = changed.status === 'completed' && (await releaseDriver(trx, driver.id, ride.id));
        return { view: changed, freed: ended ? [driver.id] : [] };
      });
      for (const driverId of freed) await dispatcher.afterDriverFreed(driverId);
      return result;
    },
  };
}

function toDispatchJob(ride: RideRow): DispatchJob {
  return {
    kind: 'ride',
    id: ride.id,
    fleetKind: 'driver',
    tier: ride.tier,
    pickup: { lat: ride.pickup_lat, lng: ride.pickup_lng, address: ride.pickup_address },
    dropoff: { lat: ride.dropoff_lat, lng: ride.dropoff_lng, address: ride.dropoff_address },
  };
}

export type RideService = ReturnType<typeof createRideService>;
