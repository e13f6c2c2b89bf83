import type { EventListFilter, EventsRepository, StoredEvent } from './events.repository';

/** `GET /api/v1/events`: the events a partner's endpoints were (or would have been) sent, as sent. */
export function createEventsService(repository: EventsRepository) {
  return {
    async list(filter: EventListFilter) {
      const rows = await repository.listEvents(filter);
      const shown = rows.slice(0, filter.limit);
      const hasMore = rows.length > filter.limit;
      return { data: shown.map(presentEvent), has_more: hasMore, next_cursor: hasMore ? shown[shown.length - 1]!.id : null };
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;

/** The event body exactly as delivered, plus which object it is about. */
function presentEvent(row: StoredEvent) {
  // Events stored before test mode existed carry no `livemode` in their body; the column says (they are all live).
  return { ...row.body, livemode: row.livemode, object_type: row.object_type, object_id: row.object_id };
}
