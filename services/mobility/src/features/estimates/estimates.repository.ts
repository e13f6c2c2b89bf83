import type { Knex } from '@platform/service-kit';
import type { LatLng } from '../../geo';
import type { Tier } from '../../pricing';

export interface Money {
  amount: number;
  currency: string;
}

export interface StoredEstimate {
  id: string;
  partnerId: string;
  pickup: LatLng;
  dropoff: LatLng;
  distanceMeters: number;
  fares: Record<Tier, Money>;
  expiresAt: Date;
}

export async function insertEstimate(db: Knex, estimate: StoredEstimate): Promise<void> {
  await db('estimates').insert({
    id: estimate.id,
    partner_id: estimate.partnerId,
    pickup_lat: estimate.pickup.lat,
    pickup_lng: estimate.pickup.lng,
    dropoff_lat: estimate.dropoff.lat,
    dropoff_lng: estimate.dropoff.lng,
    distance_meters: estimate.distanceMeters,
    fares: JSON.stringify(estimate.fares),
    expires_at: estimate.expiresAt,
  });
}

export async function findEstimate(db: Knex, partnerId: string, id: string): Promise<StoredEstimate | undefined> {
  const row = await db('estimates').where({ partner_id: partnerId, id }).first();
  if (!row) return undefined;
  return {
    id: row.id,
    partnerId: row.partner_id,
    pickup: { lat: row.pickup_lat, lng: row.pickup_lng },
    dropoff: { lat: row.dropoff_lat, lng: row.dropoff_lng },
    distanceMeters: row.distance_meters,
    fares: row.fares,
    expiresAt: row.expires_at,
  };
}
