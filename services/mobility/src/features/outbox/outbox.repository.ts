import { currentTraceparent } from '@platform/service-kit/request-context';
import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';

export type EventObjectType = 'ride' | 'delivery' | 'event_pass_program' | 'webhook_endpoint';

export interface NewOutboxEvent {
  partnerId: string;
  /** The mode of the object the event is about (default live): test events go to test endpoints only. */
  livemode?: boolean;
  type: string;
  objectType: EventObjectType;
  objectId: string;
  /** The object's own sequence number after this change (rides.sequence, deliveries.sequence). */
  sequence: number;
  /** The object as GET returns it. */
  data: Record<string, unknown>;
  /** An example event sent to one endpoint: the body says `"example": true`. */
  example?: boolean;
}

export interface OutboxEventBody {
  id: string;
  type: string;
  created_at: string;
  /** false for test-mode (sandbox) data. */
  livemode: boolean;
  /** Only on example events (sent from the dashboard's event catalog): true. */
  example?: true;
  data: Record<string, unknown>;
}

/**
 * Writes an event inside the caller's transaction, so it commits (or not) with the state change it describes. Inside
 * a request the event keeps the request's `traceparent`, so its webhook POST continues the partner's trace.
 */
export async function appendOutboxEvent(trx: Knex.Transaction, event: NewOutboxEvent): Promise<OutboxEventBody> {
  const livemode = event.livemode ?? true;
  const body: OutboxEventBody = { id: newId('evt'), type: event.type, created_at: new Date().toISOString(), livemode, ...(event.example ? { example: true as const } : {}), data: event.data };
  await trx('outbox_events').insert({
    id: body.id,
    partner_id: event.partnerId,
    livemode,
    type: event.type,
    object_type: event.objectType,
    object_id: event.objectId,
    sequence: event.sequence,
    body: JSON.stringify(body),
    created_at: body.created_at,
    traceparent: currentTraceparent() ?? null,
  });
  return body;
}
