/** Webhook endpoints through the mobility admin API (admin twins of the partner API's /api/v1/webhooks routes). */
import { request } from '../../api/http';
import type { DataMode } from '../../mode/data-mode';
import type { CreatedWebhookEndpoint, MobilitySchemas, Page, WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../api/types';

/** The events an endpoint can subscribe to, in the order the form lists them. */
export const EVENT_TYPES = [
  'ride.accepted',
  'ride.arrived',
  'ride.in_progress',
  'ride.completed',
  'ride.cancelled',
  'ride.no_drivers_available',
  'delivery.courier_assigned',
  'delivery.picked_up',
  'delivery.delivered',
  'delivery.failed',
  'delivery.cancelled',
  'event_pass.redeemed',
  'event_pass.released',
  'event_pass_program.budget_exhausted',
] as const satisfies readonly WebhookEventType[];

/** Sent only to endpoints that list them (a stream of positions). */
export const LOCATION_EVENT_TYPES = ['ride.location_updated', 'delivery.courier_location_updated'] as const satisfies readonly WebhookEventType[];

/**
 * The two lists together name every event type of the API's schema: a type the schema gains and neither list names
 * fails to compile here (an unknown name already fails the `satisfies` above).
 */
type UnlistedEventType = Exclude<WebhookEventType, (typeof EVENT_TYPES)[number] | (typeof LOCATION_EVENT_TYPES)[number]>;
const everyEventTypeListed: [UnlistedEventType] extends [never] ? true : { unlisted: UnlistedEventType } = true;
void everyEventTypeListed;

const at = (id: string, rest = ''): `/webhooks/${string}` => `/webhooks/${encodeURIComponent(id)}${rest}`;

export const listEndpoints = () => request<Page<WebhookEndpoint>>('mobility', '/webhooks');
export const getEndpoint = (id: string, mode?: DataMode) => request<WebhookEndpoint>('mobility', at(id), { mode });
export const createEndpoint = (body: MobilitySchemas['NewWebhookEndpoint']) => request<CreatedWebhookEndpoint>('mobility', '/webhooks', { method: 'POST', body });
export const updateEndpoint = (id: string, body: MobilitySchemas['WebhookEndpointUpdate']) => request<WebhookEndpoint>('mobility', at(id), { method: 'PATCH', body });
export const deleteEndpoint = (id: string) => request<void>('mobility', at(id), { method: 'DELETE' });
export const rotateSecret = (id: string) => request<CreatedWebhookEndpoint>('mobility', at(id, '/rotate-secret'), { method: 'POST' });
export const sendTest = (id: string) => request<unknown>('mobility', at(id, '/test'), { method: 'POST' });
/** The message log's filters, as the admin API takes them (empty means any). */
export interface MessageFilters {
  event_type?: string;
  status?: string;
  created_after?: string;
  created_before?: string;
}

export const listDeliveries = (id: string, filters: MessageFilters = {}, cursor?: string) =>
  request<Page<WebhookDelivery>>('mobility', at(id, '/deliveries'), { query: { limit: 20, cursor, ...filters } });
export const replayDelivery = (id: string, deliveryId: string) =>
  request<WebhookDelivery>('mobility', at(id, `/deliveries/${encodeURIComponent(deliveryId)}/replay`), { method: 'POST' });
export const retryDelivery = (id: string, deliveryId: string) =>
  request<WebhookDelivery>('mobility', at(id, `/deliveries/${encodeURIComponent(deliveryId)}/retry`), { method: 'POST' });
export const recoverEvents = (id: string, body: MobilitySchemas['WebhookRecovery']) =>
  request<{ queued: number }>('mobility', at(id, '/recover'), { method: 'POST', body });
