import type { Knex } from '@platform/service-kit/db';
import { DELIVERY_PRICING } from '../../platform/pricing';
import type { DispatchJob } from '../dispatch';
import { createJobLifecycle, type JobLifecyclePorts } from '../jobs';
import { NO_COURIERS_AVAILABLE, deliveryEventType, nextDeliveryStatus, type DeliveryAction, type DeliveryStatus } from './delivery-status';
import { presentDelivery, type DeliveryTrackingLinks, type DeliveryView } from './delivery.presenter';
import type { DeliveriesRepository, DeliveryChange, DeliveryLookup, DeliveryRow } from './deliveries.repository';

/** Columns a delivery's status change may set besides the status. */
export type { DeliveryChange };

/** The delivery's life cycle: its table, its state machine and its GET view, run by the shared job life cycle. */
export function createDeliveryLifecycle(db: Knex, deliveries: DeliveriesRepository, ports: JobLifecyclePorts, tracking: DeliveryTrackingLinks) {
  return createJobLifecycle<DeliveryRow, DeliveryStatus, DeliveryAction, DeliveryLookup, DeliveryChange, DeliveryView>(
    db,
    {
      objectType: 'delivery',
      notFoundMessage: 'Delivery not found',
      find: deliveries.find,
      updateStatus: deliveries.updateStatus,
      nextStatus: nextDeliveryStatus,
      eventType: deliveryEventType,
      assigneeOf: (delivery) => delivery.courier_id,
      present: (delivery, courier, telemetry) => presentDelivery(delivery, courier, telemetry, tracking),
    },
    ports,
  );
}

export type DeliveryLifecycle = ReturnType<typeof createDeliveryLifecycle>;

/** How the dispatcher moves a delivery: it searches while pending; accept assigns the courier, time-out fails it. */
export function deliveryDispatchHandler(lifecycle: DeliveryLifecycle) {
  return lifecycle.dispatchHandler({
    kind: 'delivery',
    searchingStatus: 'pending',
    toDispatchJob,
    assign: (courierId) => ({ action: 'assign', change: { courier_id: courierId } }),
    giveUp: { action: 'time_out', change: { failure_reason: NO_COURIERS_AVAILABLE } },
  });
}

function toDispatchJob(delivery: DeliveryRow): DispatchJob {
  return {
    kind: 'delivery',
    id: delivery.id,
    partnerId: delivery.partner_id,
    fleetKind: 'courier',
    tier: DELIVERY_PRICING[delivery.weight_tier].courierTier,
    pickup: { lat: delivery.pickup_lat, lng: delivery.pickup_lng, address: delivery.pickup_address },
    dropoff: { lat: delivery.dropoff_lat, lng: delivery.dropoff_lng, address: delivery.dropoff_address },
  };
}
