import type { z } from 'zod';
import type { PartnerAccount } from '../api-keys';
import { deliveryFeeBreakdown, fareBreakdown, tripMeters, type Tier, type WeightTier } from '../../platform/pricing';
import { tripOutcome } from './trip-outcome';
import type { TimelineEventRow, TripTimelineRepository } from './trip-timeline.repository';
import type { tripTimelineResponse } from './trip-timeline.schema';

/** What the timeline reads of a ride or a delivery: its GET view's fields (the services answer 404 for one not found). */
interface TripView {
  id: string;
  status: string;
  pickup: { lat: number; lng: number };
  dropoff: { lat: number; lng: number };
  livemode: boolean;
  created_at: string;
  cancelled_by?: string | null;
}
interface RideView extends TripView {
  tier: Tier;
  fare: { amount: number; currency: string };
}
interface DeliveryView extends TripView {
  weight_tier: WeightTier;
  fee: { amount: number; currency: string };
  failure_reason?: string | null;
}

export interface TripTimelineDeps {
  repository: TripTimelineRepository;
  getRide(account: PartnerAccount, id: string): Promise<RideView>;
  getDelivery(account: PartnerAccount, id: string): Promise<DeliveryView>;
  /** DISPATCH_TIMEOUT_S: how long a search runs before it gives up (the outcome names it in minutes). */
  dispatchTimeoutSeconds: number;
  /** EVENT_RETENTION_DAYS: events older than this are gone. */
  retentionDays: number;
}

type TripTimeline = z.input<typeof tripTimelineResponse>;

/** Location updates are a stream of positions, not a change: the timeline leaves them out. */
const isLocationEvent = (type: string) => type.endsWith('location_updated');

/** A ride's or delivery's timeline: its status changes (from its events), what each sent, why it ended, its price. */
export function createTripTimelineService({ repository, getRide, getDelivery, dispatchTimeoutSeconds, retentionDays }: TripTimelineDeps) {
  async function timelineOf(kind: 'ride' | 'delivery', account: PartnerAccount, trip: TripView): Promise<TripTimeline['timeline']> {
    const events = (await repository.eventsOf(account.partnerId, account.livemode, trip.id, retentionDays)).filter((event) => !isLocationEvent(event.type));
    const messages = await repository.messagesOf(account.partnerId, events.map((event) => event.id));
    const present = (event: TimelineEventRow) => ({
      id: event.id,
      type: event.type,
      created_at: event.created_at.toISOString(),
      messages: messages
        .filter((message) => message.event_id === event.id)
        .map((message) => ({
          id: message.id,
          endpoint_id: message.endpoint_id,
          endpoint_url: message.endpoint_url,
          status: message.status,
          attempts: message.attempts,
          last_status_code: message.last_status_code,
          created_at: message.created_at.toISOString(),
        })),
    });
    const entries: TripTimeline['timeline'] = [{ status: 'pending', at: trip.created_at, events: [] }];
    for (const event of events) {
      const status = event.type.startsWith(`${kind}.`) ? event.body.data?.status : undefined;
      if (status && event.type === `${kind}.${status}`) entries.push({ status, at: event.created_at.toISOString(), events: [present(event)] });
      else entries[entries.length - 1]!.events.push(present(event));
    }
    return entries;
  }

  return {
    async ride(account: PartnerAccount, id: string): Promise<TripTimeline> {
      const ride = await getRide(account, id);
      return {
        id: ride.id,
        status: ride.status,
        outcome: tripOutcome({ kind: 'ride', status: ride.status, cancelled_by: ride.cancelled_by, livemode: ride.livemode }, dispatchTimeoutSeconds),
        timeline: await timelineOf('ride', account, ride),
        price: fareBreakdown(ride.tier, tripMeters(ride.pickup, ride.dropoff), ride.fare),
      };
    },
    async delivery(account: PartnerAccount, id: string): Promise<TripTimeline> {
      const delivery = await getDelivery(account, id);
      return {
        id: delivery.id,
        status: delivery.status,
        outcome: tripOutcome(
          { kind: 'delivery', status: delivery.status, failure_reason: delivery.failure_reason, cancelled_by: delivery.cancelled_by, livemode: delivery.livemode },
          dispatchTimeoutSeconds,
        ),
        timeline: await timelineOf('delivery', account, delivery),
        price: deliveryFeeBreakdown(delivery.weight_tier, tripMeters(delivery.pickup, delivery.dropoff), delivery.fee),
      };
    },
  };
}

export type TripTimelineService = ReturnType<typeof createTripTimelineService>;
