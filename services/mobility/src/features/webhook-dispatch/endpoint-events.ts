import type { Knex } from '@platform/service-kit/db';

/**
 * An event about a webhook endpoint itself (`webhook.test`, `webhook_endpoint.disabled`), or an example event of any
 * type sent to one endpoint (`example: true`), written to the outbox.
 */
export interface EndpointEvent {
  partnerId: string;
  /** The endpoint's mode: a test endpoint's events go to test endpoints only. */
  livemode: boolean;
  type: string;
  /** An example event (the dashboard's "Send example event"): its body says `"example": true`. */
  example?: true;
  objectType: 'webhook_endpoint';
  objectId: string;
  sequence: number;
  data: Record<string, unknown>;
}

/** The outbox's append, wired in by the process (features do not import each other's repositories). */
export type AppendEndpointEvent = (trx: Knex.Transaction, event: EndpointEvent) => Promise<{ id: string; created_at: string }>;

/** Sent to every enabled endpoint of the partner, whatever it subscribed to: it is about the partner's own setup. */
export const ALWAYS_DELIVERED_EVENT_TYPES: readonly string[] = ['webhook_endpoint.disabled'];

/** The next per-object sequence number for an endpoint's own events (the caller holds the endpoint's row lock). */
export async function nextEndpointEventSequence(trx: Knex.Transaction, endpointId: string): Promise<number> {
  const row = await trx('outbox_events').where({ object_id: endpointId }).max<{ max: number | null }>('sequence as max').first();
  return (row?.max ?? 0) + 1;
}
