import type { Knex } from '@platform/service-kit';

/**
 * The only columns the public tracking page may ever see; the query names them one by one, so the PIN hash, phone
 * numbers, the sender, the pick-up address, partner ids and notes are never even read.
 */
export interface TrackedDeliveryRow {
  status: string;
  courier_id: string | null;
  dropoff_lat: number;
  dropoff_lng: number;
  weight_tier: string;
  status_timeline: Array<{ status: string; at: string }>;
  created_at: Date;
  updated_at: Date;
}

/** The delivery whose tracking token has this SHA-256 (a unique index lookup), if any. */
export async function findTrackedDelivery(db: Knex, tokenHash: string): Promise<TrackedDeliveryRow | undefined> {
  return (await db('deliveries')
    .where({ tracking_token_hash: tokenHash })
    .first('status', 'courier_id', 'dropoff_lat', 'dropoff_lng', 'weight_tier', 'status_timeline', 'created_at', 'updated_at')) as TrackedDeliveryRow | undefined;
}
