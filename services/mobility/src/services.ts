import { organizationBudget, type ApiKeyAuthCache } from '@platform/api-keys';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import { companionConnection, type Redis } from '@platform/service-kit/redis';
import type { MobilityConfig } from './config';
import { jobSecretsFrom } from './platform/job-secrets';
import { apiKeyCapsOf, createMobilityApiKeys } from './features/api-keys';
import { COURIER_ACTIVE_STATUSES, createDeliveryLifecycle, createDeliveryProofRepository, createDeliveryQuoteService, createDeliveryQuotesRepository, createDeliveryService, createKnexDeliveriesRepository, deliveryDispatchHandler } from './features/deliveries';
import { createBrandingRepository } from './features/branding';
import { createDispatcher, createDispatchTimers, createDriverRelease, createOffersRepository } from './features/dispatch';
import { createEstimateService, createEstimatesRepository } from './features/estimates';
import { createDriverSessionService, createDriverSessionsRepository, createSignInThrottle } from './features/driver-sessions';
import { createEventPassesRepository, createEventPassService } from './features/event-passes';
import { createFleetLocations, createFleetRepository, createFleetService } from './features/fleet';
import type { JobLifecyclePorts } from './features/jobs';
import { appendOutboxEvent, createEventsRepository, createEventsService } from './features/outbox';
import { ACTIVE_STATUSES, createKnexRidesRepository, createRideLifecycle, createRideService, rideDispatchHandler } from './features/rides';
import { createPartnersRepository } from './features/partners';
import { createTrackingLinks, createTrackingRepository, createTrackingService } from './features/tracking';
import { createTripTimelineRepository, createTripTimelineService } from './features/trip-timeline';
import { createSandboxExpiryRepository, createSandboxService } from './features/sandbox';
import { createJobTelemetry, createLocationEventsRepository } from './features/telemetry';
import { createEndpointSecretCipher, createWebhookQueue, EVENT_RETENTION_DAYS, retryPolicyFrom } from './features/webhook-dispatch';
import { createWebhookEndpointService, createWebhookEndpointsRepository, createWebhookMessageLogRepository } from './features/webhook-endpoints';

/** What a mobility process (the API server, the worker, a test) gives the services it builds. */
export interface MobilityDeps {
  db: Knex;
  redis: Redis;
  config: MobilityConfig;
  logger: Logger;
  /** The per-process key cache (the API server starts one; apps built without it read every key from Postgres). */
  apiKeyCache?: ApiKeyAuthCache;
  /** The request metrics to record into (the server shares one with the estimates fast lane); a new set otherwise. */
  metrics?: Metrics;
}

/**
 * Wires the feature services once per process; the HTTP app and the worker share this. Services meet here: the job life
 * cycles get the fleet, the outbox and the driver release through their ports, the dispatcher the rides' and deliveries'
 * handlers, telemetry the statuses in which a job shows its assignee. (Features also import each other's faces, their
 * `index.ts`, for shared types and tables; never this file.)
 */
export function buildServices({ db, redis, config, logger, apiKeyCache }: MobilityDeps) {
  const apiKeys = createMobilityApiKeys(db, apiKeyCapsOf(config), apiKeyCache);
  // One budget per partner, its live and test keys together: the sandbox cannot add a second budget to its live one.
  const organizationRequests = organizationBudget({ perMinute: config.RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE, service: 'mobility', redis, prefix: config.REDIS_PREFIX, logger });
  const locations = createFleetLocations(redis, config.REDIS_PREFIX);
  const fleet = createFleetService(db, createFleetRepository(db), locations);
  const estimates = createEstimateService(createEstimatesRepository(db), locations, { dispatchRadiusMeters: config.DISPATCH_RADIUS_M });
  // BullMQ's queues on a connection of their own (closed with redis): see companionConnection.
  const queueConnection = companionConnection(redis);
  const timers = createDispatchTimers(queueConnection, redis, config.REDIS_PREFIX);
  const offers = createOffersRepository(db);
  const release = createDriverRelease(offers, fleet, locations, logger);
  const eventPasses = createEventPassService({ db, repository: createEventPassesRepository(db), appendEvent: appendOutboxEvent });
  const telemetry = createJobTelemetry({
    repository: createLocationEventsRepository(db),
    redis,
    prefix: config.REDIS_PREFIX,
    logger,
    limits: { perProcess: config.STREAM_MAX_PER_PROCESS, perKey: config.STREAM_MAX_PER_KEY, perOrganization: config.STREAM_MAX_PER_ORGANIZATION },
    locationEvents: { minIntervalMs: config.LOCATION_EVENT_INTERVAL_S * 1000, minMeters: config.LOCATION_EVENT_DISTANCE_M },
    activeStatuses: { ride: ACTIVE_STATUSES, delivery: COURIER_ACTIVE_STATUSES },
  });
  const jobPorts: JobLifecyclePorts = {
    appendEvent: appendOutboxEvent,
    findDriver: fleet.findDriver,
    findDrivers: fleet.findDrivers,
    telemetry: (driverId) => locations.telemetry(driverId),
    telemetries: (driverIds) => locations.telemetries(driverIds),
    releaseDriver: fleet.releaseDriver,
    withdrawOffers: release.withdrawOffers,
    afterDriverFreed: release.afterDriverFreed,
    // A ride's pass reservation is spent or released in the same transaction as its status change.
    onStatusChange: (trx, change) => (change.objectType === 'ride' ? eventPasses.settleRide(trx, change) : Promise.resolve()),
    statusCommitted: telemetry.statusCommitted,
    // Built below (it needs the life cycles' handlers); only called after a change committed.
    searchEnded: (job) => dispatcher.searchEnded(job),
  };
  const ridesRepository = createKnexRidesRepository();
  const rideLifecycle = createRideLifecycle(db, ridesRepository, jobPorts);
  // Each delivery's public tracking link (`tracking_url`); the tracking page reads deliveries only by that token.
  // Their own keys (required in production), never JWT_SECRET: job-secrets.ts.
  const jobSecrets = jobSecretsFrom(config);
  const trackingLinks = createTrackingLinks({ secret: jobSecrets.trackingTokenKey, publicBaseUrl: config.PUBLIC_BASE_URL });
  const deliveriesRepository = createKnexDeliveriesRepository();
  const deliveryLifecycle = createDeliveryLifecycle(db, deliveriesRepository, jobPorts, trackingLinks);
  const dispatcher = createDispatcher({
    db,
    offers,
    locations,
    drivers: fleet,
    release,
    timers,
    handlers: [rideDispatchHandler(rideLifecycle), deliveryDispatchHandler(deliveryLifecycle)],
    settings: { radiusMeters: config.DISPATCH_RADIUS_M, offerTtlSeconds: config.DISPATCH_OFFER_TTL_S, searchTimeoutSeconds: config.DISPATCH_TIMEOUT_S },
  });
  const rides = createRideService({ db, repository: ridesRepository, lifecycle: rideLifecycle, dispatcher, estimates, passes: eventPasses, logger });
  const deliveryQuotes = createDeliveryQuoteService({ repository: createDeliveryQuotesRepository(db), locations, dispatchRadiusMeters: config.DISPATCH_RADIUS_M });
  const deliveries = createDeliveryService({ db, repository: deliveriesRepository, proofs: createDeliveryProofRepository(), lifecycle: deliveryLifecycle, dispatcher, locations, logger, pinFingerprintKey: jobSecrets.pinFingerprintKey, quotes: deliveryQuotes, tracking: trackingLinks });
  const tracking = createTrackingService({ db, repository: createTrackingRepository(db), findDriver: fleet.findDriver, telemetry: (driverId) => locations.telemetry(driverId), linkTtlSeconds: config.TRACKING_LINK_TTL_S });
  // Driver sign-in: `driverSessions.issueActivationCode(organizationId | undefined, driverId)` is also what an operator CLI calls.
  const driverSessions = createDriverSessionService(db, createDriverSessionsRepository(db), fleet, {
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
  const sandbox = createSandboxService({ idleJobs: createSandboxExpiryRepository(db), rides: rideLifecycle, deliveries: deliveryLifecycle });
  // The partner's webhook endpoints (register, test events, retries: the queue the worker drains) and its event log.
  const webhookQueue = createWebhookQueue(queueConnection, config.REDIS_PREFIX);
  const webhooks = createWebhookEndpointService({
    db,
    endpoints: createWebhookEndpointsRepository(db),
    messageLog: createWebhookMessageLogRepository(db),
    queue: webhookQueue,
    policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE },
    secrets: createEndpointSecretCipher(config),
    maxEndpointsPerPartner: config.WEBHOOK_MAX_ENDPOINTS_PER_PARTNER,
    recoverMinIntervalSeconds: config.WEBHOOK_RECOVER_MIN_INTERVAL_S,
    appendEvent: appendOutboxEvent,
    maxAttempts: retryPolicyFrom(config).maxAttempts,
    logger,
  });
  const events = createEventsService(createEventsRepository(db));
  const branding = createBrandingRepository(db);
  // The dashboard's history of one ride or delivery: its events, the messages that carried them, why it ended, its price.
  const tripTimelines = createTripTimelineService({ repository: createTripTimelineRepository(db), getRide: rides.getRide, getDelivery: deliveries.getDelivery, dispatchTimeoutSeconds: config.DISPATCH_TIMEOUT_S, retentionDays: EVENT_RETENTION_DAYS });
  const partners = createPartnersRepository(db);
  return {
    apiKeys,
    organizationRequests,
    locations,
    fleet,
    estimates,
    timers,
    dispatcher,
    rides,
    deliveries,
    deliveryQuotes,
    eventPasses,
    trackingLinks,
    tracking,
    driverSessions,
    signInThrottle,
    sandbox,
    telemetry,
    webhookQueue,
    webhooks,
    events,
    branding,
    partners,
    tripTimelines,
  };
}

export type MobilityServices = ReturnType<typeof buildServices>;
