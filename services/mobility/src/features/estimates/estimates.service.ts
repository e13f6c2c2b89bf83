import { newId } from '@platform/service-kit/ids';
import type { LatLng } from '../../platform/geo';
import { ESTIMATE_VALIDITY_SECONDS, PRICING, ROAD_FACTOR, TIERS, fareFor, travelSeconds, tripMeters, type Tier } from '../../platform/pricing';
import type { FleetLocations } from '../fleet';
import type { EstimatesRepository, Money, StoredEstimate } from './estimates.repository';
import type { z } from 'zod';
import type { estimateResponse } from './estimates.schema';

export interface TierEstimate {
  tier: Tier;
  display_name: string;
  fare: Money;
  /** The trip at this tier's average speed: the duration its fare is priced on. */
  duration_seconds: number;
  pickup_eta_seconds: number | null;
  available: boolean;
}

/** An estimate as answered (its response schema's type). */
export type EstimateView = z.input<typeof estimateResponse>;

/**
 * Test mode sees the sandbox driver (and courier) only, never the live fleet: it is always free, and its
 * pick-up ETA is this fixed value for every tier, wherever the pick-up is.
 */
export const SANDBOX_PICKUP_ETA_SECONDS = 180;

/** Whose estimate: the key's partner and mode (a test key's sees the sandbox driver only). */
export interface EstimateAccount {
  partnerId: string;
  livemode: boolean;
}

export function createEstimateService(repository: EstimatesRepository, locations: FleetLocations, options: { dispatchRadiusMeters: number }) {
  /** The nearest free driver of each tier, turned into an ETA at the tier's speed; null when nobody is in range (test mode: the sandbox driver's). */
  async function pickupEtas({ partnerId, livemode }: EstimateAccount, pickup: LatLng): Promise<(number | null)[]> {
    if (!livemode) return TIERS.map(() => SANDBOX_PICKUP_ETA_SECONDS);
    const nearest = await locations.nearestOfEachTier('driver', TIERS, partnerId, pickup, options.dispatchRadiusMeters); // drivers this partner may be offered
    return TIERS.map((tier) => {
      const found = nearest.get(tier);
      return found ? travelSeconds(tier, found.meters * ROAD_FACTOR) : null;
    });
  }

  return {
    /** The partner's stored estimate (expired ones too: the caller decides what expiry means for it). */
    findEstimate(partnerId: string, id: string): Promise<StoredEstimate | undefined> {
      return repository.findEstimate(partnerId, id);
    },

    async createEstimate(account: EstimateAccount, pickup: LatLng, dropoff: LatLng): Promise<EstimateView> {
      const { partnerId } = account;
      const distanceMeters = tripMeters(pickup, dropoff);
      const etas = await pickupEtas(account, pickup);
      const estimates = TIERS.map((tier, i) => ({
        tier,
        display_name: PRICING[tier].displayName,
        fare: fareFor(tier, distanceMeters),
        duration_seconds: travelSeconds(tier, distanceMeters),
        pickup_eta_seconds: etas[i] ?? null,
        available: etas[i] != null,
      }));
      const expiresAt = new Date(Date.now() + ESTIMATE_VALIDITY_SECONDS * 1000);
      const id = newId('est');
      const fares = Object.fromEntries(estimates.map((e) => [e.tier, e.fare])) as Record<Tier, Money>;
      await repository.insertEstimate({ id, partnerId, pickup, dropoff, distanceMeters, fares, expiresAt });
      return {
        id,
        expires_at: expiresAt.toISOString(),
        distance_meters: distanceMeters,
        // The trip's duration at the standard (economy) speed; each tier's fare uses its own speed.
        duration_seconds: travelSeconds('economy', distanceMeters),
        estimates,
      };
    },
  };
}

export type EstimateService = ReturnType<typeof createEstimateService>;
