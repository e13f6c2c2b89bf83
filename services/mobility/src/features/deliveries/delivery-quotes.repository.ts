import type { Knex } from '@platform/service-kit/db';
import type { LatLng } from '../../platform/geo';
import type { WeightTier } from '../../platform/pricing';

export interface DeliveryQuoteRow {
  id: string;
  partner_id: string;
  pickup_lat: number;
  pickup_lng: number;
  dropoff_lat: number;
  dropoff_lng: number;
  weight_tier: WeightTier;
  distance_meters: number;
  fee_amount: number;
  fee_currency: string;
  expires_at: Date;
  /** false: a test-mode quote, bookable only by a test-mode delivery. */
  livemode: boolean;
  created_at: Date;
}

/** Delivery quotes, each the partner's and of one mode. */
export interface DeliveryQuotesRepository {
  insertDeliveryQuote(quote: Omit<DeliveryQuoteRow, 'created_at'>): Promise<DeliveryQuoteRow>;
  /** The quote only if it is the partner's, in the same mode: another partner's (or mode's) quote is not found, like an unknown one. */
  findDeliveryQuote(conn: Knex, partnerId: string, livemode: boolean, id: string): Promise<DeliveryQuoteRow | undefined>;
}

/** The Postgres `delivery_quotes` table; a booking reads its quote on the booking's own connection (`conn`). */
export function createDeliveryQuotesRepository(db: Knex): DeliveryQuotesRepository {
  return {
    async insertDeliveryQuote(quote) {
      const [row] = await db('delivery_quotes').insert(quote).returning('*');
      return row as DeliveryQuoteRow;
    },
    async findDeliveryQuote(conn, partnerId, livemode, id) {
      return (await conn('delivery_quotes').where({ id, partner_id: partnerId, livemode }).first()) as DeliveryQuoteRow | undefined;
    },
  };
}

export function samePlace(row: { lat: number; lng: number }, place: LatLng): boolean {
  return row.lat === place.lat && row.lng === place.lng;
}
