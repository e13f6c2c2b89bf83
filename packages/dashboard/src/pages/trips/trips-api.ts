/** Rides and deliveries through the mobility admin API (admin twins of the partner API's lists and reads). */
import { request } from '../../api/http';
import type { Delivery, Page, Ride } from '../../api/types';
import type { DataMode } from '../../mode/data-mode';

export type TripKind = 'rides' | 'deliveries';
export type Trip = Ride | Delivery;

export const listTrips = (kind: TripKind, status?: string, cursor?: string) =>
  request<Page<Trip>>('mobility', `/${kind}`, { query: { limit: 20, status, cursor } });
/** `mode`: look it up in that mode rather than the page's. */
export const getTrip = (kind: TripKind, id: string, mode?: DataMode) => request<Trip>('mobility', `/${kind}/${encodeURIComponent(id)}`, { mode });

export interface TripEvent {
  id: string;
  type: string;
  created_at: string;
  data?: { status?: string; updated_at?: string };
}
/** The status history: the events the object's changes produced (the webhook outbox), oldest first. */
export const listTripEvents = async (id: string) => {
  const page = await request<Page<TripEvent>>('mobility', '/events', { query: { object_id: id, limit: 100 } });
  return [...page.data].reverse();
};

export const STATUSES: Record<TripKind, string[]> = {
  rides: ['pending', 'accepted', 'arrived', 'in_progress', 'completed', 'cancelled', 'no_drivers_available'],
  deliveries: ['pending', 'courier_assigned', 'picked_up', 'delivered', 'failed', 'cancelled'],
};
