/** Rides and deliveries through the mobility admin API (admin twins of the partner API's lists and reads). */
import { request } from '../../api/http';
import type { Delivery, MobilitySchemas, Page, Ride } from '../../api/types';
import type { DataMode } from '../../mode/data-mode';

export type TripKind = 'rides' | 'deliveries';
export type Trip = Ride | Delivery;

export const listTrips = (kind: TripKind, status?: string, cursor?: string) =>
  request<Page<Trip>>('mobility', `/${kind}`, { query: { limit: 20, status, cursor } });
/** `mode`: look it up in that mode rather than the page's. */
export const getTrip = (kind: TripKind, id: string, mode?: DataMode) => request<Trip>('mobility', `/${kind}/${encodeURIComponent(id)}`, { mode });

export const STATUSES: Record<TripKind, string[]> = {
  rides: ['pending', 'accepted', 'arrived', 'in_progress', 'completed', 'cancelled', 'no_drivers_available'],
  deliveries: ['pending', 'courier_assigned', 'picked_up', 'delivered', 'failed', 'cancelled'],
};

export type TripTimeline = MobilitySchemas['TripTimeline'];
export type TimelineEntry = MobilitySchemas['TripTimelineEntry'];
export type TimelineMessage = MobilitySchemas['TripTimelineMessage'];
export type PriceBreakdown = MobilitySchemas['PriceBreakdown'];

/** The trip's timeline (status changes with their webhook events and messages), why it ended, and its price in parts. */
export const getTripTimeline = (kind: TripKind, id: string) => request<TripTimeline>('mobility', `/${kind}/${encodeURIComponent(id)}/timeline`);

/** A message's place in its endpoint's message log: the log opened on it (filtered to its event type and time, the row open). */
export function messageLogPath(eventType: string, message: Pick<TimelineMessage, 'id' | 'endpoint_id' | 'created_at'>): string {
  const query = new URLSearchParams({ message: message.id, event_type: eventType, at: message.created_at });
  return `/webhooks/${encodeURIComponent(message.endpoint_id)}?${query.toString()}`;
}
