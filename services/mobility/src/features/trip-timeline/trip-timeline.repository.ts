import type { Knex } from '@platform/service-kit/db';

export interface TimelineEventRow {
  id: string;
  type: string;
  created_at: Date;
  body: { data?: { status?: string } };
}

export interface TimelineMessageRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  endpoint_url: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  last_status_code: number | null;
  created_at: Date;
}

/** The outbox events about one trip and the webhook messages that carry them. */
export interface TripTimelineRepository {
  /** The trip's events in the retention window, oldest first. */
  eventsOf(partnerId: string, livemode: boolean, objectId: string, retentionDays: number): Promise<TimelineEventRow[]>;
  messagesOf(partnerId: string, eventIds: string[]): Promise<TimelineMessageRow[]>;
}

export function createTripTimelineRepository(db: Knex): TripTimelineRepository {
  return {
    eventsOf(partnerId, livemode, objectId, retentionDays) {
      return db('outbox_events')
        .select('id', 'type', 'created_at', 'body')
        .where({ partner_id: partnerId, livemode, object_id: objectId })
        .whereRaw('created_at > now() - make_interval(days => ?)', [retentionDays])
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async messagesOf(partnerId, eventIds) {
      if (eventIds.length === 0) return [];
      return db('webhook_deliveries as d')
        .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .select('d.id', 'd.event_id', 'd.endpoint_id', 'e.url as endpoint_url', 'd.status', 'd.attempts', 'd.last_status_code', 'd.created_at')
        .where('d.partner_id', partnerId)
        .whereIn('d.event_id', eventIds)
        .orderBy([{ column: 'd.created_at' }, { column: 'd.id' }]);
    },
  };
}
