import { queryRows, type Knex } from '@platform/service-kit/db';
import type { LatLng } from '../../platform/geo';
import type { Tier } from '../../platform/pricing';

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

const INSERT_ESTIMATE = `insert into estimates (id, partner_id, pickup_lat, pickup_lng, dropoff_lat, dropoff_lng, distance_meters, fares, expires_at)
                         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

/** Stored estimates, each the partner's. */
export interface EstimatesRepository {
  /** One insert per estimate, the partner API's most frequent write: a plain statement without knex's query builder. */
  insertEstimate(estimate: StoredEstimate): Promise<void>;
  findEstimate(partnerId: string, id: string): Promise<StoredEstimate | undefined>;
}

/** The Postgres `estimates` table. */
export function createEstimatesRepository(db: Knex): EstimatesRepository {
  return {
    async insertEstimate(estimate) {
      await queryRows(db, INSERT_ESTIMATE, [
        estimate.id,
        estimate.partnerId,
        estimate.pickup.lat,
        estimate.pickup.lng,
        estimate.dropoff.lat,
        estimate.dropoff.lng,
        estimate.distanceMeters,
        JSON.stringify(estimate.fares),
        estimate.expiresAt,
      ]);
    },
    async findEstimate(partnerId, id) {
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
    },
  };
}
