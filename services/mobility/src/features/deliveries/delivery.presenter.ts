import type { Driver, Telemetry } from '../fleet';
import { presentAssignee } from '../jobs';
import { COURIER_ACTIVE_STATUSES } from './delivery-status';
import type { DeliveryRow } from './deliveries.repository';
import type { z } from 'zod';
import type { deliveryResponse } from './deliveries.schema';

/** The delivery's public tracking link (services.ts wires the tracking feature's links in). */
export interface DeliveryTrackingLinks {
  /** The stored SHA-256 of a new delivery's tracking token. */
  hashFor(deliveryId: string): string;
  /** `{PUBLIC_BASE_URL}/track/{token}`, or null for a delivery made before tracking existed. */
  urlFor(delivery: Pick<DeliveryRow, 'id' | 'tracking_token_hash'>): string | null;
}

/**
 * The delivery as GET /api/v1/deliveries/{id} shows it; webhook events carry exactly this. Fields are listed one by one,
 * so the PIN hash and the attempt counter can never leak into an answer.
 */
export function presentDelivery(delivery: DeliveryRow, courier: Driver | undefined, telemetry: Telemetry | null, tracking: DeliveryTrackingLinks): DeliveryView {
  const active = COURIER_ACTIVE_STATUSES.includes(delivery.status);
  return {
    id: delivery.id,
    status: delivery.status,
    weight_tier: delivery.weight_tier,
    fee: { amount: delivery.fee_amount, currency: delivery.fee_currency },
    sender: { name: delivery.sender_name, phone: delivery.sender_phone },
    recipient: { name: delivery.recipient_name, phone: delivery.recipient_phone },
    pickup: { lat: delivery.pickup_lat, lng: delivery.pickup_lng, address: delivery.pickup_address },
    dropoff: { lat: delivery.dropoff_lat, lng: delivery.dropoff_lng, address: delivery.dropoff_address },
    notes: delivery.notes,
    courier: presentAssignee(courier),
    // Live position while the courier is heading to the pick-up or carrying the parcel.
    courier_location:
      active && telemetry ? { lat: telemetry.lat, lng: telemetry.lng, heading: telemetry.heading, speed_kph: telemetry.speed_kph, updated_at: telemetry.updated_at } : null,
    proof_of_delivery:
      delivery.status === 'delivered' && delivery.delivered_at
        ? {
            pin_verified: true as const,
            received_by: delivery.received_by,
            photo_url: delivery.photo_url,
            delivered_at: delivery.delivered_at.toISOString(),
            location: delivery.delivered_lat !== null && delivery.delivered_lng !== null ? { lat: delivery.delivered_lat, lng: delivery.delivered_lng } : null,
          }
        : null,
    failure_reason: delivery.failure_reason,
    cancelled_by: delivery.cancelled_by,
    tracking_url: tracking.urlFor(delivery),
    livemode: delivery.livemode,
    sequence: delivery.sequence,
    created_at: delivery.created_at.toISOString(),
    updated_at: delivery.updated_at.toISOString(),
  };
}

/** The delivery as answered: its response schema's type, with the `sequence` every answer carries. */
export type DeliveryView = z.input<typeof deliveryResponse> & { sequence: number };
