import { createInMemoryJobRepository, type InMemoryDatabase } from '../jobs';
import type { NewRideRow, RideLookup, RideRow, RideStatusChange, RidesRepository } from './rides.repository';

/** The rides table in memory (unit tests of the ride's life cycle): the Postgres table's answers, without Postgres. */
export function createInMemoryRidesRepository(memory: InMemoryDatabase) {
  return createInMemoryJobRepository<RideRow, NewRideRow, RideLookup, RideStatusChange>(memory, {
    defaults: () => ({ driver_id: null, cancelled_by: null, event_pass_id: null, pass_covered_amount: null }),
    matches: (ride, lookup) =>
      (lookup.partnerId === undefined || ride.partner_id === lookup.partnerId) &&
      (lookup.livemode === undefined || ride.livemode === lookup.livemode) &&
      (lookup.driverId === undefined || ride.driver_id === lookup.driverId),
  }) satisfies RidesRepository;
}
