import { ApiError } from '@platform/service-kit/errors';
import { isIdOf, newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { LatLng } from '../../platform/geo';
import { DELIVERY_PRICING, DELIVERY_QUOTE_VALIDITY_SECONDS, ROAD_FACTOR, deliveryFeeFor, travelSeconds, tripMeters, type WeightTier } from '../../platform/pricing';
import type { PartnerAccount } from '../api-keys';
import { SANDBOX_PICKUP_ETA_SECONDS } from '../estimates';
import type { FleetLocations } from '../fleet';
import { samePlace, type DeliveryQuoteRow, type DeliveryQuotesRepository } from './delivery-quotes.repository';

export interface DeliveryQuoteInput {
  pickup: LatLng;
  dropoff: LatLng;
  weight_tier: WeightTier;
}

export interface DeliveryQuoteView {
  quote_id: string;
  weight_tier: WeightTier;
  fee: { amount: number; currency: string };
  distance_meters: number;
  /** The nearest free courier of the weight tier's vehicle to the pickup; null when none is in range. */
  pickup_eta_seconds: number | null;
  /** Pickup ETA plus the trip at the courier vehicle's speed; null when the pickup ETA is. */
  dropoff_eta_seconds: number | null;
  expires_at: string;
  livemode: boolean;
}

/** A booking's quote problem: always a 422 whose code names the rule. */
function quoteError(code: string, message: string): ApiError {
  return new ApiError(422, code, message);
}

export function createDeliveryQuoteService({ repository, locations, dispatchRadiusMeters }: { repository: DeliveryQuotesRepository; locations: Pick<FleetLocations, 'nearestOfEachTier'>; dispatchRadiusMeters: number }) {
  return {
    async createQuote({ partnerId, livemode }: PartnerAccount, input: DeliveryQuoteInput): Promise<DeliveryQuoteView> {
      const distanceMeters = tripMeters(input.pickup, input.dropoff);
      const courierTier = DELIVERY_PRICING[input.weight_tier].courierTier;
      // Test mode sees the sandbox courier only, never the live fleet.
      const nearest = livemode ? (await locations.nearestOfEachTier('courier', [courierTier], partnerId, input.pickup, dispatchRadiusMeters)).get(courierTier) : undefined;
      const pickupEta = !livemode ? SANDBOX_PICKUP_ETA_SECONDS : nearest ? travelSeconds(courierTier, nearest.meters * ROAD_FACTOR) : null;
      const fee = deliveryFeeFor(input.weight_tier, distanceMeters);
      const row = await repository.insertDeliveryQuote({
        id: newId('dq'),
        partner_id: partnerId,
        livemode,
        pickup_lat: input.pickup.lat,
        pickup_lng: input.pickup.lng,
        dropoff_lat: input.dropoff.lat,
        dropoff_lng: input.dropoff.lng,
        weight_tier: input.weight_tier,
        distance_meters: distanceMeters,
        fee_amount: fee.amount,
        fee_currency: fee.currency,
        expires_at: new Date(Date.now() + DELIVERY_QUOTE_VALIDITY_SECONDS * 1000),
      });
      return {
        quote_id: row.id,
        weight_tier: row.weight_tier,
        fee,
        distance_meters: distanceMeters,
        pickup_eta_seconds: pickupEta,
        dropoff_eta_seconds: pickupEta === null ? null : pickupEta + travelSeconds(courierTier, distanceMeters),
        expires_at: row.expires_at.toISOString(),
        livemode: row.livemode,
      };
    },

    /**
     * The fee a booking with `quoteId` pays: the quote must be the partner's (else `delivery_quote_not_found`), unexpired
     * (`delivery_quote_expired`) and for the booking's exact pickup, drop-off and weight tier (`delivery_quote_mismatch`).
     */
    async quotedFee(conn: Knex, { partnerId, livemode }: PartnerAccount, quoteId: string, booking: DeliveryQuoteInput): Promise<{ amount: number; currency: string }> {
      const quote: DeliveryQuoteRow | undefined = isIdOf('dq', quoteId) ? await repository.findDeliveryQuote(conn, partnerId, livemode, quoteId) : undefined;
      if (!quote) throw quoteError('delivery_quote_not_found', 'No delivery quote of yours has this id');
      if (quote.expires_at.getTime() <= Date.now()) throw quoteError('delivery_quote_expired', `The quote expired at ${quote.expires_at.toISOString()}; request a new one`);
      const matches =
        samePlace({ lat: quote.pickup_lat, lng: quote.pickup_lng }, booking.pickup) &&
        samePlace({ lat: quote.dropoff_lat, lng: quote.dropoff_lng }, booking.dropoff) &&
        quote.weight_tier === booking.weight_tier;
      if (!matches) throw quoteError('delivery_quote_mismatch', 'The quote was for another pickup, drop-off or weight tier');
      return { amount: quote.fee_amount, currency: quote.fee_currency };
    },
  };
}

export type DeliveryQuoteService = ReturnType<typeof createDeliveryQuoteService>;
