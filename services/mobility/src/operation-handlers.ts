import { apiKeyHandlers } from './features/api-keys';
import { auditHandlers } from './features/audit';
import { brandingHandlers } from './features/branding';
import { eventPassHandlers } from './features/event-passes';
import { eventHandlers } from './features/outbox';
import { createMobilitySummaryReader, summaryHandlers } from './features/summary';
import { createMobilitySearchReader, searchHandlers } from './features/search';
import { webhookEndpointHandlers } from './features/webhook-endpoints';
import { courierDeliveryHandlers, deliveryHandlers } from './features/deliveries';
import { estimateHandlers } from './features/estimates';
import { rideHandlers } from './features/rides';
import { sandboxHandlers } from './features/sandbox';
import { trackingHandlers } from './features/tracking';
import { tripTimelineHandlers } from './features/trip-timeline';
import { currentDriver, driverAppHandlers } from './features/driver-app';
import { driverSessionsHandlers } from './features/driver-sessions';
import { fleetHandlers } from './features/fleet';
import { mobilityOpenApi } from './openapi';
import { operationsHandlers } from './platform/operations.handlers';
import type { MobilityDeps, MobilityServices } from './services';

/**
 * Every operation's handler, feature by feature, keyed by operation id. Where each is mounted, how it is guarded,
 * parsed, limited and audited is the route table's (`route-table.ts`); a feature gives only what it does. `deps.metrics`
 * is the app's own registry (`/metrics` serves what the app records).
 */
export function mobilityHandlers(deps: MobilityDeps & Required<Pick<MobilityDeps, 'metrics'>>, services: MobilityServices): Record<string, (input: never) => unknown> {
  return {
    ...driverAppHandlers(services.fleet, services.dispatcher, services.rides, services.telemetry),
    ...driverSessionsHandlers(services.driverSessions, services.signInThrottle),
    // A registration answers the driver's first activation code, issued in the registering transaction.
    ...fleetHandlers(services.fleet, { passOnOpenOffers: (driverId) => services.dispatcher.declineOpenOffers(driverId), onRegistered: services.driverSessions.firstActivationCode }),
    ...operationsHandlers({
      readiness: { postgres: () => deps.db.raw('select 1'), redis: () => deps.redis.ping() },
      metrics: deps.metrics,
      description: mobilityOpenApi(),
    }),
    ...webhookEndpointHandlers(services.webhooks),
    ...eventHandlers(services.events),
    ...eventPassHandlers(services.eventPasses),
    ...brandingHandlers(services.branding),
    ...summaryHandlers(createMobilitySummaryReader(deps.db)),
    ...searchHandlers(createMobilitySearchReader(deps.db)),
    ...auditHandlers(deps.db),
    ...apiKeyHandlers(services.apiKeys),
    ...estimateHandlers(services.estimates),
    ...rideHandlers(services.rides, services.telemetry),
    ...deliveryHandlers(services.deliveries, services.deliveryQuotes, services.telemetry),
    ...courierDeliveryHandlers(services.deliveries, currentDriver),
    ...sandboxHandlers(services.sandbox),
    ...trackingHandlers(services.tracking),
    ...tripTimelineHandlers(services.tripTimelines),
  };
}
