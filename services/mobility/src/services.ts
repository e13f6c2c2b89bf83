import type { MobilityDeps } from './app';
import { jobSecretsFrom } from './job-secrets';
import { apiKeyCapsOf, createMobilityApiKeys } from './features/api-keys/api-keys';
import { createDeliveryLifecycle, deliveryDispatchHandler } from './features/deliveries/delivery-lifecycle';
import { createDeliveryService } from './features/deliveries/deliveries.service';
import { createDeliveryQuoteService } from './features/deliveries/delivery-quotes';
import { Dispatcher } from './features/dispatch/dispatch.service';
import { DispatchTimers } from './features/dispatch/dispatch.timers';
import { createDriverRelease } from './features/dispatch/driver-release';
import { createEstimateService } from './features/estimates/estimates.service';
import { createDriverSessionService } from './features/driver-sessions/driver-sessions.service';
import { createSignInThrottle } from './features/driver-sessions/signin-throttle';
import { createEventPassService } from './features/event-passes/event-passes.service';
import { FleetLocations } from './features/fleet/fleet.locations';
import { createFleetService } from './features/fleet/fleet.service';
import type { JobLifecyclePorts } from './features/jobs/job-lifecycle';
import { appendOutboxEvent } from './features/outbox/outbox.repository';
import { createRideLifecycle, rideDispatchHandler } from './features/rides/ride-lifecycle';
import { createRideService } from './features/rides/rides.service';
import { createTrackingLinks } from './features/tracking/tracking-token';
import { createTrackingService } from './features/tracking/tracking.service';
import { createSandboxService } from './features/sandbox/sandbox.service';
import { createJobTelemetry } from './features/telemetry/job-telemetry.service';

/**
 * Wires the feature services once per process; the HTTP app and the worker share this. Features meet only here: the job
 * life cycles get the fleet, the outbox and the driver release; the dispatcher gets the rides' and deliveries' handlers.
 */
export function buildServices({ db, redis, config, logger, apiKeyCache }: MobilityDeps) {
  const apiKeys = createMobilityApiKeys(db, apiKeyCapsOf(config), apiKeyCache);
  const locations = new FleetLocations(redis, config.REDIS_PREFIX);
  const fleet = createFleetService(db, locations);
  const estimates = createEstimateService(db, locations, { dispatchRadiusMeters: config.DISPATCH_RADIUS_M });
  const timers = new DispatchTimers(redis, config.REDIS_PREFIX);
  const release = createDriverRelease(db, fleet, locations, logger);
  const eventPasses = createEventPassService({ db, appendEvent: appendOutboxEvent });
  const telemetry = createJobTelemetry({
    db,
    redis,
    prefix: config.REDIS_PREFIX,
    logger,
    limits: { perProcess: config.STREAM_MAX_PER_PROCESS, perKey: config.STREAM_MAX_PER_KEY, perOrganization: config.STREAM_MAX_PER_ORGANIZATION },
    locationEvents: { minIntervalMs: config.LOCATION_EVENT_INTERVAL_S * 1000, minMeters: config.LOCATION_EVENT_DISTANCE_M },
  });
  const jobPorts: JobLifecyclePorts = {
    appendEvent: appendOutboxEvent,
    findDriver: fleet.findDriver,
    telemetry: (driverId) => locations.telemetry(driverId),
    releaseDriver: fleet.releaseDriver,
    withdrawOffers: release.withdrawOffers,
    afterDriverFreed: release.afterDriverFreed,
    // A ride's pass reservation is spent or released in the same transaction as its status change.
    onStatusChange: (trx, change) => (change.objectType === 'ride' ? eventPasses.settleRide(trx, change) : Promise.resolve()),
    statusCommitted: telemetry.statusCommitted,
    // Built below (it needs the life cycles' handlers); only called after a change committed.
    searchEnded: (job) => dispatcher.searchEnded(job),
  };
  const rideLifecycle = createRideLifecycle(db, jobPorts);
  // Each delivery's public tracking link (`tracking_url`); the tracking page reads deliveries only by that token.
  // Their own keys (required in production), never JWT_SECRET: job-secrets.ts.
  const jobSecrets = jobSecretsFrom(config);
  const trackingLinks = createTrackingLinks({ secret: jobSecrets.trackingTokenKey, publicBaseUrl: config.PUBLIC_BASE_URL });
  const deliveryLifecycle = createDeliveryLifecycle(db, jobPorts, trackingLinks);
  const dispatcher = new Dispatcher({
    db,
    locations,
    drivers: fleet,
    release,
    timers,
    handlers: [rideDispatchHandler(rideLifecycle), deliveryDispatchHandler(deliveryLifecycle)],
    settings: { radiusMeters: config.DISPATCH_RADIUS_M, offerTtlSeconds: config.DISPATCH_OFFER_TTL_S, searchTimeoutSeconds: config.DISPATCH_TIMEOUT_S },
  });
  const rides = createRideService({ db, lifecycle: rideLifecycle, dispatcher, estimates, passes: eventPasses, logger });
  const deliveryQuotes = createDeliveryQuoteService({ db, locations, dispatchRadiusMeters: config.DISPATCH_RADIUS_M });
  const deliveries = createDeliveryService({ db, lifecycle: deliveryLifecycle, dispatcher, locations, logger, pinFingerprintKey: jobSecrets.pinFingerprintKey, quotes: deliveryQuotes, tracking: trackingLinks });
  const tracking = createTrackingService({ db, findDriver: fleet.findDriver, telemetry: (driverId) => locations.telemetry(driverId), linkTtlSeconds: config.TRACKING_LINK_TTL_S });
  // Driver sign-in: `driverSessions.issueActivationCode(organizationId | undefined, driverId)` is also what an operator CLI calls.
  const driverSessions = createDriverSessionService(db, fleet, {
    jwtSecret: config.JWT_SECRET,
    jwtIssuer: config.JWT_ISSUER,
    accessTokenTtlSeconds: config.DRIVER_ACCESS_TOKEN_TTL_S,
    refreshTokenTtlSeconds: config.DRIVER_REFRESH_TOKEN_TTL_S,
  });
  const signInThrottle = createSignInThrottle(redis, config.REDIS_PREFIX, {
    maxFailures: config.DRIVER_SIGNIN_MAX_FAILURES,
    windowSeconds: config.DRIVER_SIGNIN_WINDOW_S,
    trustProxyHops: config.DRIVER_SIGNIN_TRUST_PROXY_HOPS,
  });
  // Test mode: moves test jobs through the same life cycles the dispatcher and drivers use.
  const sandbox = createSandboxService({ db, rides: rideLifecycle, deliveries: deliveryLifecycle });
  return { apiKeys, locations, fleet, estimates, timers, dispatcher, rides, deliveries, deliveryQuotes, eventPasses, trackingLinks, tracking, driverSessions, signInThrottle, sandbox, telemetry };
}

export type MobilityServices = ReturnType<typeof buildServices>;
