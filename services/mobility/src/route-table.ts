import type { RouteSpec } from '@platform/service-kit/route-table';
import { apiKeysContract } from './features/api-keys';
import { auditContract } from './features/audit';
import { brandingContract } from './features/branding';
import { courierContract, deliveriesContract } from './features/deliveries';
import { driverAppContract } from './features/driver-app';
import { driverSessionsContract } from './features/driver-sessions';
import { estimatesContract } from './features/estimates';
import { eventPassesContract } from './features/event-passes';
import { fleetContract } from './features/fleet';
import { eventsContract } from './features/outbox';
import { ridesContract } from './features/rides';
import { sandboxContract } from './features/sandbox';
import { searchContract } from './features/search';
import { summaryContract } from './features/summary';
import { trackingContract } from './features/tracking';
import { tripTimelineContract } from './features/trip-timeline';
import { webhookEndpointsContract } from './features/webhook-endpoints';
import { operationsContract } from './platform/operations.contract';

/**
 * Every operation the mobility service answers, in the order of its description: each feature declares its own
 * (`<feature>.contract.ts`); the description, the conformance check and the fast lanes read them from here.
 */
export const mobilityRouteTable: readonly RouteSpec[] = [
  ...estimatesContract,
  ...ridesContract,
  ...deliveriesContract,
  ...tripTimelineContract,
  ...sandboxContract,
  ...eventPassesContract,
  ...webhookEndpointsContract,
  ...eventsContract,
  ...driverSessionsContract,
  ...driverAppContract,
  ...courierContract,
  ...brandingContract,
  ...apiKeysContract,
  ...fleetContract,
  ...summaryContract,
  ...searchContract,
  ...trackingContract,
  ...operationsContract,
  ...auditContract,
];
