import { apiKeyHandlers } from './features/api-keys';
import { auditHandlers } from './features/audit';
import { brandingHandlers } from './features/branding';
import { eventPassHandlers } from './features/event-passes';
import { eventHandlers } from './features/outbox';
import { createMobilitySummaryReader, summaryHandlers } from './features/summary';
import { webhookEndpointHandlers } from './features/webhook-endpoints';
import { courierDeliveryHandlers, deliveryHandlers } from './features/deliveries';
import { currentDriver } from './features/driver-app';
import { estimateHandlers } from './features/estimates';
import { rideHandlers } from './features/rides';
import { sandboxHandlers } from './features/sandbox';
import { trackingHandlers } from './features/tracking';
import type { MobilityDeps, MobilityServices } from './services';

/**
 * Every operation's handler, feature by feature, keyed by operation id. Where each is mounted, how it is guarded,
 * parsed, limited and audited is the route table's (`route-table.ts`); a feature gives only what it does.
 */
export function mobilityHandlers(deps: MobilityDeps, services: MobilityServices): Record<string, (input: never) => unknown> {
  return {
    ...webhookEndpointHandlers(services.webhooks),
    ...eventHandlers(services.events),
    ...eventPassHandlers(services.eventPasses),
    ...brandingHandlers(services.branding),
    ...summaryHandlers(createMobilitySummaryReader(deps.db)),
    ...auditHandlers(deps.db),
    ...apiKeyHandlers(services.apiKeys),
    ...estimateHandlers(services.estimates),
    ...rideHandlers(services.rides, services.telemetry),
    ...deliveryHandlers(services.deliveries, services.deliveryQuotes, services.telemetry),
    ...courierDeliveryHandlers(services.deliveries, currentDriver),
    ...sandboxHandlers(services.sandbox),
    ...trackingHandlers(services.tracking),
  };
}
