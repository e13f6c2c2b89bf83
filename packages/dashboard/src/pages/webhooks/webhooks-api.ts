/** Webhook endpoints through the mobility admin API (admin twins of the partner API's /api/v1/webhooks routes). */
import { WEBHOOK_EVENT_TYPES } from '@platform/client/schema';
import { request } from '../../api/http';
import type { DataMode } from '../../mode/data-mode';
import type { CreatedWebhookEndpoint, MobilitySchemas, Page, WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../../api/types';

export type EndpointStats = MobilitySchemas['WebhookEndpointStats'];

/**
 * Every event type an endpoint can subscribe to, in the order the form lists them: the list the API validates `events`
 * against (its `WebhookEventType`), generated from its description into @platform/client, so a new type shows up here.
 */
export const EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES;

/** Opt-in: sent only to endpoints that list them (a stream of positions); registering without `events` leaves them out. */
export const LOCATION_EVENT_TYPES = ['ride.location_updated', 'delivery.courier_location_updated'] as const satisfies readonly WebhookEventType[];

const at = (id: string, rest = ''): `/webhooks/${string}` => `/webhooks/${encodeURIComponent(id)}${rest}`;

export const listEndpoints = () => request<Page<WebhookEndpoint>>('mobility', '/webhooks');
export const getEndpoint = (id: string, mode?: DataMode) => request<WebhookEndpoint>('mobility', at(id), { mode });
export const createEndpoint = (body: MobilitySchemas['NewWebhookEndpoint']) => request<CreatedWebhookEndpoint>('mobility', '/webhooks', { method: 'POST', body });
export const updateEndpoint = (id: string, body: MobilitySchemas['WebhookEndpointUpdate']) => request<WebhookEndpoint>('mobility', at(id), { method: 'PATCH', body });
export const deleteEndpoint = (id: string) => request<void>('mobility', at(id), { method: 'DELETE' });
export const rotateSecret = (id: string) => request<CreatedWebhookEndpoint>('mobility', at(id, '/rotate-secret'), { method: 'POST' });
export const sendTest = (id: string) => request<unknown>('mobility', at(id, '/test'), { method: 'POST' });
/** Sends one event type's catalog example to this endpoint alone (marked `"example": true`). */
export const sendExample = (id: string, body: MobilitySchemas['WebhookExampleEvent']) =>
  request<WebhookDelivery>('mobility', at(id, '/examples'), { method: 'POST', body });
/** Success rate, p50/p95 latency and volume of the endpoint's deliveries over the last 24 h and 7 d. */
export const getEndpointStats = (id: string) => request<EndpointStats>('mobility', at(id, '/stats'));
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
