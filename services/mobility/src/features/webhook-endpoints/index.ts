/** The webhook-endpoints feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { webhookEndpointsContract } from './webhook-endpoints.contract';
export { createdWebhookEndpointResponse, listWebhookDeliveriesResponse, listWebhookEndpointsResponse, recoverWebhookEventsResponse, webhookDeliveryResponse, webhookEndpointResponse, webhookEventTypeResponse } from './webhook-endpoints.schema';
export { webhookEndpointHandlers } from './webhook-endpoints.handlers';
export { createWebhookEndpointsRepository } from './webhook-endpoints.repository';
export { createWebhookEndpointService } from './webhook-endpoints.service';
export { createWebhookMessageLogRepository } from './webhook-message-log.repository';
