import { z } from 'zod';
import { ValidationError } from '@platform/service-kit/errors';
import { greatCircleMeters, type LatLng } from './geo';
import { integer } from './schema-types';

/**
 * The pricing table: one place for every number that shapes a fare. Amounts are minor units of `CURRENCY`.
 * fare = max(minimum, base + per_km × km + per_minute × minutes), rounded to a whole minor unit.
 */
export const TIERS = ['moto', 'economy', 'comfort', 'xl'] as const;
export type Tier = (typeof TIERS)[number];

export const CURRENCY = 'NGN';

/** Straight-line distance × this ≈ road distance. */
export const ROAD_FACTOR = 1.3;
/** Trips longer than this (road distance) are refused. */
export const MAX_TRIP_METERS = 200_000;
/** An estimate locks its fare for rides created within this time. */
export const ESTIMATE_VALIDITY_SECONDS = 300;
/** A delivery quote books its fee for deliveries created within this time. */
export const DELIVERY_QUOTE_VALIDITY_SECONDS = 900;

export interface TierPricing {
  displayName: string;
  averageSpeedKph: number;
  base: number;
  perKm: number;
  perMinute: number;
  minimum: number;
}

export const PRICING: Record<Tier, TierPricing> = {
  moto: { displayName: 'Moto', averageSpeedKph: 30, base: 30_000, perKm: 10_000, perMinute: 1_500, minimum: 80_000 },
  economy: { displayName: 'Economy', averageSpeedKph: 25, base: 50_000, perKm: 15_000, perMinute: 2_000, minimum: 120_000 },
  comfort: { displayName: 'Comfort', averageSpeedKph: 25, base: 80_000, perKm: 20_000, perMinute: 3_000, minimum: 180_000 },
  xl: { displayName: 'XL', averageSpeedKph: 22, base: 100_000, perKm: 25_000, perMinute: 3_500, minimum: 250_000 },
};

/** Road distance between two points; over the limit is a 422 on `dropoff`. */
export function tripMeters(pickup: LatLng, dropoff: LatLng): number {
  const meters = Math.round(greatCircleMeters(pickup, dropoff) * ROAD_FACTOR);
  if (meters > MAX_TRIP_METERS) {
    throw new ValidationError([{ path: 'dropoff', message: `trip is ${Math.round(meters / 1000)} km; the limit is ${MAX_TRIP_METERS / 1000} km` }]);
  }
  return meters;
}

export function travelSeconds(tier: Tier, meters: number): number {
  return Math.round(meters / ((PRICING[tier].averageSpeedKph * 1000) / 3600));
}

export function fareFor(tier: Tier, meters: number): { amount: number; currency: string } {
  const p = PRICING[tier];
  const raw = p.base + (p.perKm * meters) / 1000 + (p.perMinute * travelSeconds(tier, meters)) / 60;
  return { amount: Math.max(p.minimum, Math.round(raw)), currency: CURRENCY };
}

/**
 * Delivery fees by weight tier: fee = max(minimum, base + per_km × road km), rounded. Each weight tier is dispatched to
 * couriers of one vehicle tier (a moto carries small and medium parcels, a car large ones, an XL van the rest).
 */
export const WEIGHT_TIERS = ['small', 'medium', 'large', 'xlarge'] as const;
export type WeightTier = (typeof WEIGHT_TIERS)[number];

export interface DeliveryPricing {
  courierTier: Tier;
  base: number;
  perKm: number;
  minimum: number;
}

export const DELIVERY_PRICING: Record<WeightTier, DeliveryPricing> = {
  small: { courierTier: 'moto', base: 50_000, perKm: 10_000, minimum: 100_000 },
  medium: { courierTier: 'moto', base: 70_000, perKm: 12_000, minimum: 130_000 },
  large: { courierTier: 'economy', base: 120_000, perKm: 18_000, minimum: 220_000 },
  xlarge: { courierTier: 'xl', base: 200_000, perKm: 25_000, minimum: 350_000 },
};

export function deliveryFeeFor(weightTier: WeightTier, meters: number): { amount: number; currency: string } {
  const p = DELIVERY_PRICING[weightTier];
  return { amount: Math.max(p.minimum, Math.round(p.base + (p.perKm * meters) / 1000)), currency: CURRENCY };
}

/** An amount in minor units of its currency, as answers show fares and fees. */
export const moneyResponse = z.object({
  amount: integer().meta({ description: 'Minor units.' }),
  currency: z.string().regex(/^[A-Z]{3}$/),
}).meta({ id: 'Money' });

/** A vehicle tier (the pricing table's `TIERS`). */
export const tierResponse = z.enum(TIERS).meta({ id: 'Tier' });

/** A delivery's weight tier (the pricing table's `WEIGHT_TIERS`). */
export const weightTierResponse = z.enum(WEIGHT_TIERS).meta({ id: 'WeightTier' });

/**
 * A fare or fee in its parts, as the pricing table reckons it for the trip's road distance: `base`, `distance`
 * (per km), `time` (per minute at the tier's average speed; deliveries have none) and `surge` (the platform has no
 * surge pricing: always 0). `adjustment` is what makes the parts add up to the amount charged: the minimum fare's
 * top-up, rounding and, for a ride booked with an estimate, the difference its locked fare makes.
 */
export interface PriceBreakdown {
  base: number;
  distance: number;
  time: number;
  surge: number;
  adjustment: number;
  total: number;
  currency: string;
  distance_meters: number;
  duration_seconds: number | null;
}

function breakdown(parts: { base: number; distance: number; time: number }, total: { amount: number; currency: string }, meters: number, seconds: number | null): PriceBreakdown {
  const surge = 0;
  const adjustment = total.amount - parts.base - parts.distance - parts.time - surge;
  return { ...parts, surge, adjustment, total: total.amount, currency: total.currency, distance_meters: meters, duration_seconds: seconds };
}

/** A ride's fare (as charged: `charged`) in the pricing table's parts. */
export function fareBreakdown(tier: Tier, meters: number, charged: { amount: number; currency: string }): PriceBreakdown {
  const p = PRICING[tier];
  const seconds = travelSeconds(tier, meters);
  return breakdown({ base: p.base, distance: Math.round((p.perKm * meters) / 1000), time: Math.round((p.perMinute * seconds) / 60) }, charged, meters, seconds);
}

/** A delivery's fee (as charged) in the pricing table's parts: no time part. */
export function deliveryFeeBreakdown(weightTier: WeightTier, meters: number, charged: { amount: number; currency: string }): PriceBreakdown {
  const p = DELIVERY_PRICING[weightTier];
  return breakdown({ base: p.base, distance: Math.round((p.perKm * meters) / 1000), time: 0 }, charged, meters, null);
}
