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
export function mobilityHandlers(_deps: MobilityDeps, services: MobilityServices): Record<string, (input: never) => unknown> {
  return {
    ...estimateHandlers(services.estimates),
    ...rideHandlers(services.rides, services.telemetry),
    ...deliveryHandlers(services.deliveries, services.deliveryQuotes, services.telemetry),
    ...courierDeliveryHandlers(services.deliveries, currentDriver),
    ...sandboxHandlers(services.sandbox),
    ...trackingHandlers(services.tracking),
  };
}
