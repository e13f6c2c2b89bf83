import { createInMemoryJobRepository, type InMemoryDatabase } from '../jobs';
import type { DeliveriesRepository, DeliveryLookup, DeliveryRow, DeliveryStatusChange, NewDeliveryRow } from './deliveries.repository';

/** The deliveries table in memory (unit tests of the delivery's life cycle): the Postgres table's answers, without Postgres. */
export function createInMemoryDeliveriesRepository(memory: InMemoryDatabase) {
  const jobs = createInMemoryJobRepository<DeliveryRow, NewDeliveryRow, DeliveryLookup, DeliveryStatusChange>(memory, {
    defaults: () => ({
      pin_failed_attempts: 0,
      courier_id: null,
      failure_reason: null,
      cancelled_by: null,
      received_by: null,
      photo_url: null,
      delivered_lat: null,
      delivered_lng: null,
      delivered_at: null,
      status_timeline: [],
      sandbox_courier_progress: null,
    }),
    matches: (delivery, lookup) =>
      (lookup.partnerId === undefined || delivery.partner_id === lookup.partnerId) &&
      (lookup.livemode === undefined || delivery.livemode === lookup.livemode) &&
      (lookup.courierId === undefined || delivery.courier_id === lookup.courierId),
    alsoSet: (delivery, change, now) => ({ status_timeline: [...delivery.status_timeline, { status: change.status, at: now.toISOString() }] }),
  });
  const repository: DeliveriesRepository & { rows(): DeliveryRow[] } = {
    ...jobs,
    async countWrongPin(_trx, id, max) {
      const delivery = await jobs.find(memory.db, { id });
      if (!delivery || delivery.pin_failed_attempts >= max) return undefined;
      return (await jobs.patch(id, { pin_failed_attempts: delivery.pin_failed_attempts + 1 })).pin_failed_attempts;
    },
  };
  return repository;
}
