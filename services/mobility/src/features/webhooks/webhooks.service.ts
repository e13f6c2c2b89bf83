import { ConflictError, NotFoundError, ValidationError, isIdOf, newId, type Knex } from '@platform/service-kit';
import { generateWebhookSecret } from '@platform/webhook-signature';
import { assertSafeTarget, UnsafeTargetError, type TargetPolicy } from './ssrf-guard';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';
import * as endpoints from './webhook-endpoints.repository';
import * as deliveries from './webhook-deliveries.repository';
import { enqueueDeliveries, type WebhookQueue } from './webhook-queue';
import type { WebhookDeliveryRow, WebhookAttemptRow } from './webhook-deliveries.repository';
import type { WebhookEndpointRow } from './webhook-endpoints.repository';

export interface WebhookServiceDeps {
  db: Knex;
  queue: WebhookQueue;
  policy: TargetPolicy;
}

export interface RegisterEndpointInput {
  url: string;
  events?: string[];
  description?: string | null;
}

export interface Page<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Registration, listing, deletion and the delivery log of a partner's webhook endpoints. */
export function createWebhookService({ db, queue, policy }: WebhookServiceDeps) {
  async function requireEndpoint(partnerId: string, id: string): Promise<WebhookEndpointRow> {
    const endpoint = isIdOf('whe', id) ? await endpoints.findEndpoint(db, partnerId, id) : undefined;
    if (!endpoint) throw new NotFoundError('Webhook endpoint not found');
    return endpoint;
  }

  return {
    async register(partnerId: string, input: RegisterEndpointInput) {
      try {
        await assertSafeTarget(input.url, policy);
      } catch (error) {
        if (error instanceof UnsafeTargetError) throw new ValidationError([{ path: 'url', message: error.message }]);
        throw error;
      }
      const row = await endpoints.insertEndpoint(db, {
        id: newId('whe'),
        partner_id: partnerId,
        url: input.url,
        events: input.events ? [...new Set(input.events)] : [...WEBHOOK_EVENT_TYPES],
        description: input.description ?? null,
        secret: generateWebhookSecret(),
      });
      return { ...presentEndpoint(row), secret: row.secret };
    },

    async list(partnerId: string, page: endpoints.PageRequest): Promise<Page<ReturnType<typeof presentEndpoint>>> {
      const rows = await endpoints.listEndpoints(db, partnerId, page);
      return toPage(rows, page.limit, presentEndpoint);
    },

    async remove(partnerId: string, id: string): Promise<void> {
      const removed = isIdOf('whe', id) && (await endpoints.deleteEndpoint(db, partnerId, id));
      if (!removed) throw new NotFoundError('Webhook endpoint not found');
    },

    async listDeliveries(partnerId: string, endpointId: string, page: endpoints.PageRequest) {
      await requireEndpoint(partnerId, endpointId);
      const rows = await deliveries.listDeliveries(db, partnerId, endpointId, page);
      const shown = rows.slice(0, page.limit);
      const attempts = await deliveries.attemptsOf(db, shown.map((d) => d.id));
      const pageOf = toPage(rows, page.limit, (d) => presentDelivery(d, attempts.filter((a) => a.delivery_id === d.id)));
      return pageOf;
    },

    /** Sends a failed delivery again (one more attempt); 409 when it is not failed or the endpoint is disabled. */
    async retryDelivery(partnerId: string, endpointId: string, deliveryId: string) {
      const endpoint = await requireEndpoint(partnerId, endpointId);
      const found = isIdOf('whd', deliveryId) ? await deliveries.findDelivery(db, partnerId, endpointId, deliveryId) : undefined;
      if (!found) throw new NotFoundError('Webhook delivery not found');
      if (endpoint.status !== 'enabled') throw new ConflictError('The webhook endpoint is disabled; register it again to receive events', 'endpoint_disabled');
      if (!(await deliveries.reopenFailedDelivery(db, deliveryId))) {
        throw new ConflictError(`Only a failed delivery can be retried (this one is ${found.status})`, 'delivery_not_failed');
      }
      // Read back before enqueueing, so the answer shows the delivery as reopened, not a race with the worker.
      const reopened = (await deliveries.findDelivery(db, partnerId, endpointId, deliveryId))!;
      const attempts = await deliveries.attemptsOf(db, [deliveryId]);
      await enqueueDeliveries(queue, [found]);
      return presentDelivery(reopened, attempts);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

function toPage<R extends { id: string }, T>(rows: R[], limit: number, present: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const shown = rows.slice(0, limit);
  return { data: shown.map(present), has_more: hasMore, next_cursor: hasMore ? shown[shown.length - 1]!.id : null };
}

/** An endpoint as partners see it: never the secret. */
export function presentEndpoint(row: WebhookEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function presentDelivery(row: WebhookDeliveryRow & { event_type: string }, attempts: WebhookAttemptRow[]) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    endpoint_id: row.endpoint_id,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: row.delivered_at ? iso(row.delivered_at) : null,
    created_at: iso(row.created_at),
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      response_body_excerpt: a.response_body_excerpt,
      created_at: iso(a.created_at),
    })),
  };
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
