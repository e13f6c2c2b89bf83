import type { Knex } from '@platform/service-kit/db';
import type { DeliveryStatus } from '../deliveries';

/**
 * The only columns the public tracking page may ever see; the query names them one by one, so the PIN hash, phone
 * numbers, the sender, the pick-up address, partner ids and notes are never even read. The id and the pick-up
 * coordinates are read but never shown: the id finds the proof images, the pick-up is drawn as the route line's start
 * (rounded to about 100 m and projected into the drawing, never as coordinates).
 */
export interface TrackedDeliveryRow {
  id: string;
  status: string;
  courier_id: string | null;
  pickup_lat: number;
  pickup_lng: number;
  dropoff_lat: number;
  dropoff_lng: number;
  weight_tier: string;
  livemode: boolean;
  received_by: string | null;
  sandbox_courier_progress: number | null;
  status_timeline: Array<{ status: DeliveryStatus; at: string }>;
  created_at: Date;
  updated_at: Date;
  /** The sending partner's branding (its own display name, else the organization's name). */
  partner_name: string | null;
  brand_color: string | null;
  has_logo: boolean;
}

export type ProofKind = 'photo' | 'signature';

export interface StoredImage {
  content_type: string;
  data: Buffer;
}

/** What the public tracking page reads: the tracked delivery, its proof images and its partner's logo. */
export interface TrackingRepository {
  /** The delivery whose tracking token has this SHA-256 (a unique index lookup), if any, with its partner's branding. */
  findTrackedDelivery(tokenHash: string): Promise<TrackedDeliveryRow | undefined>;
  /** Which proof images the courier handed in. */
  trackedProofKinds(deliveryId: string): Promise<ProofKind[]>;
  findTrackedProofImage(deliveryId: string, kind: ProofKind): Promise<StoredImage | undefined>;
  /** The logo of the partner who sent this delivery. */
  findTrackedLogo(deliveryId: string): Promise<StoredImage | undefined>;
}

/** The Postgres reads behind the tracking page. */
export function createTrackingRepository(db: Knex): TrackingRepository {
  return {
    async findTrackedDelivery(tokenHash) {
      return (await db('deliveries as d')
        .leftJoin('partners as p', 'p.id', 'd.partner_id')
        .leftJoin('partner_branding as b', 'b.partner_id', 'd.partner_id')
        .where({ 'd.tracking_token_hash': tokenHash })
        .first(
          ...['id', 'status', 'courier_id', 'pickup_lat', 'pickup_lng', 'dropoff_lat', 'dropoff_lng', 'weight_tier', 'livemode', 'received_by', 'sandbox_courier_progress', 'status_timeline', 'created_at', 'updated_at'].map((c) => `d.${c}`),
          db.raw('coalesce(b.display_name, p.name) as partner_name'),
          'b.brand_color',
          db.raw('(b.logo is not null) as has_logo'),
        )) as TrackedDeliveryRow | undefined;
    },
    async trackedProofKinds(deliveryId) {
      return (await db('delivery_proof_images').where({ delivery_id: deliveryId }).orderBy('kind').pluck('kind')) as ProofKind[];
    },
    async findTrackedProofImage(deliveryId, kind) {
      return (await db('delivery_proof_images').where({ delivery_id: deliveryId, kind }).first('content_type', 'data')) as StoredImage | undefined;
    },
    async findTrackedLogo(deliveryId) {
      const row = (await db('deliveries as d')
        .join('partner_branding as b', 'b.partner_id', 'd.partner_id')
        .where('d.id', deliveryId)
        .whereNotNull('b.logo')
        .first('b.logo_content_type as content_type', 'b.logo as data')) as StoredImage | undefined;
      return row;
    },
  };
}
