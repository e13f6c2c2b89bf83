import type { WebhookAttemptRow, WebhookMessageRow } from '../webhook-dispatch';
import type { WebhookEndpointRow } from './webhook-endpoints.repository';
import type { z } from 'zod';
import type { webhookDeliveryResponse, webhookEndpointResponse } from './webhook-endpoints.schema';

type WebhookAttemptView = NonNullable<z.input<typeof webhookDeliveryResponse>['attempt_log']>[number];

/** An endpoint as partners see it: never the secret. */
export function presentEndpoint(row: WebhookEndpointRow): z.input<typeof webhookEndpointResponse> {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabled_reason: row.disabled_reason,
    livemode: row.livemode,
    previous_secret_expires_at: row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > new Date() ? iso(row.previous_secret_expires_at) : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A message (one event for one endpoint) as the delivery log shows it, with every attempt. */
export function presentWebhookMessage(row: WebhookMessageRow & { event_type: string; payload?: unknown }, attempts: WebhookAttemptRow[]): z.input<typeof webhookDeliveryResponse> {
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
    // The request body every attempt sent: the event exactly as the endpoint received it.
    payload: row.payload ?? null,
    attempt_log: attempts.map(presentWebhookAttempt),
  };
}

/** One HTTP try in a message's `attempt_log`. */
export function presentWebhookAttempt(attempt: WebhookAttemptRow): WebhookAttemptView {
  return {
    attempt: attempt.attempt,
    status_code: attempt.status_code,
    duration_ms: attempt.duration_ms,
    error: attempt.error,
    response_body_excerpt: attempt.response_body_excerpt,
    request_headers: attempt.request_headers ?? null,
    response_headers: attempt.response_headers ?? null,
    created_at: iso(attempt.created_at),
  };
}

function iso(value: Date | string): string {
  return new Date(value).toISOString();
}
