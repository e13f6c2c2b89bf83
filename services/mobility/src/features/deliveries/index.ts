/** The deliveries feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { courierContract } from './courier.contract';
export { deliveriesContract } from './deliveries.contract';
export { createdDeliveryResponse, deliveryQuoteResponse, deliveryResponse, deliveryStatusResponse, listDeliveriesResponse, pinRefusedResponse, proofOfDeliveryResponse, requestDelivery422Response } from './deliveries.schema';
export { createKnexDeliveriesRepository } from './deliveries.repository';
export { createDeliveryProofRepository } from './delivery-proof.repository';
export { createDeliveryQuotesRepository } from './delivery-quotes.repository';
export { courierDeliveryHandlers, deliveryHandlers, deliveryId } from './deliveries.handlers';
export { createDeliveryService } from './deliveries.service';
export { createDeliveryLifecycle, deliveryDispatchHandler } from './delivery-lifecycle';
export type { DeliveryChange, DeliveryLifecycle } from './delivery-lifecycle';
export { createDeliveryQuoteService } from './delivery-quotes';
export { COURIER_ACTIVE_STATUSES, DELIVERY_EVENT_TYPES, DELIVERY_STATUSES, isTerminalDelivery, NO_COURIERS_AVAILABLE } from './delivery-status';
export type { DeliveryAction, DeliveryStatus } from './delivery-status';
