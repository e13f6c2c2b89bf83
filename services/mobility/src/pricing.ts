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

export function travelSeconds(tier: Tier, meters: number): number {
  return Math.round(meters / ((PRICING[tier].averageSpeedKph * 1000) / 3600));
}

export function fareFor(tier: Tier, meters: number): { amount: number; currency: string } {
  const p = PRICING[tier];
  const raw = p.base + (p.perKm * meters) / 1000 + (p.perMinute * travelSeconds(tier, meters)) / 60;
  return { amount: Math.max(p.minimum, Math.round(raw)), currency: CURRENCY };
}
