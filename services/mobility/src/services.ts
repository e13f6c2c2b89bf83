import type { MobilityDeps } from './app';
import { createMobilityApiKeys } from './features/api-keys/api-keys';
import { createDeliveryService } from './features/deliveries/deliveries.service';
import { Dispatcher } from './features/dispatch/dispatch.service';
import { DispatchTimers } from './features/dispatch/dispatch.timers';
import { createEstimateService } from './features/estimates/estimates.service';
import { FleetLocations } from './features/fleet/fleet.locations';
import { createFleetService } from './features/fleet/fleet.service';
import { createRideService } from './features/rides/rides.service';

/** Wires the feature services once per process; the HTTP app and the worker share this. */
export function buildServices({ db, redis, config, logger }: MobilityDeps) {
  const apiKeys = createMobilityApiKeys(db);
  const locations = new FleetLocations(redis, config.REDIS_PREFIX);
  const fleet = createFleetService(db, locations);
  const estimates = createEstimateService(db, locations, { dispatchRadiusMeters: config.DISPATCH_RADIUS_M });
  const timers = new DispatchTimers(redis, config.REDIS_PREFIX);
  const dispatcher = new Dispatcher(db, locations, timers, {
    radiusMeters: config.DISPATCH_RADIUS_M,
    offerTtlSeconds: config.DISPATCH_OFFER_TTL_S,
    searchTimeoutSeconds: config.DISPATCH_TIMEOUT_S,
  }, logger);
  const rides = createRideService(db, locations, dispatcher, logger);
  const deliveries = createDeliveryService(db, locations, dispatcher, logger, { pinFingerprintKey: config.JWT_SECRET });
  return { apiKeys, locations, fleet, estimates, timers, dispatcher, rides, deliveries };
}

export type MobilityServices = ReturnType<typeof buildServices>;
