import type { Knex } from '@platform/service-kit/db';
import { EVENT_RETENTION_DAYS } from '../webhook-dispatch';

export interface EventListFilter {
  partnerId: string;
  /** Live or test events: a key sees only its own mode's. */
  livemode: boolean;
  type?: string;
  objectId?: string;
  limit: number;
  /** The id of the last event of the previous page. */
  cursor?: string;
}

export interface StoredEvent {
  id: string;
  type: string;
  object_type: string;
  object_id: string;
  livemode: boolean;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  created_at: Date;
}

/** The partner's events as stored in the outbox. */
export interface EventsRepository {
  /** The partner's events of the retention window, newest first; one row more than asked, to tell whether a page follows. */
  listEvents(filter: EventListFilter): Promise<StoredEvent[]>;
}

/** The Postgres `outbox_events` table, read for the events API. */
export function createEventsRepository(db: Knex): EventsRepository {
  return {
    async listEvents(filter) {
      const query = db('outbox_events')
        .select('id', 'type', 'object_type', 'object_id', 'livemode', 'body', 'created_at')
        .where({ partner_id: filter.partnerId, livemode: filter.livemode })
        .whereRaw('created_at > now() - make_interval(days => ?)', [EVENT_RETENTION_DAYS]);
      if (filter.type) query.where({ type: filter.type });
      if (filter.objectId) query.where({ object_id: filter.objectId });
      if (filter.cursor) {
        query.whereRaw('(created_at, id) < (select created_at, id from outbox_events where id = ? and partner_id = ? and livemode = ?)', [filter.cursor, filter.partnerId, filter.livemode]);
      }
      return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filter.limit + 1);
    },
  };
}
