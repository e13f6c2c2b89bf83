import type { Knex } from '@platform/service-kit/db';
import type { JobKind, Place } from './dispatch.types';

export type OfferStatus = 'pending' | 'accepted' | 'declined' | 'expired' | 'withdrawn';

export interface OfferRow {
  id: string;
  kind: JobKind;
  job_id: string;
  driver_id: string;
  status: OfferStatus;
  pickup: Place;
  dropoff: Place;
  expires_at: Date;
  created_at: Date;
  responded_at: Date | null;
}

/** The dispatch offers; every method but `openOffersForDriver` runs on the connection or transaction it is given. */
export interface OffersRepository {
  insertOffer(trx: Knex, offer: Pick<OfferRow, 'id' | 'kind' | 'job_id' | 'driver_id' | 'pickup' | 'dropoff'>, ttlSeconds: number): Promise<OfferRow>;
  /** Drivers already asked for this job (whatever they answered): never asked twice. */
  askedDriverIds(trx: Knex, jobId: string): Promise<Set<string>>;
  hasPendingOffer(trx: Knex, jobId: string): Promise<boolean>;
  /** Moves a still-pending offer to `status`; undefined when it was answered, expired or withdrawn meanwhile. */
  closeOffer(trx: Knex, where: { id: string; driver_id?: string }, status: Exclude<OfferStatus, 'pending'>): Promise<OfferRow | undefined>;
  /** Withdraws every pending offer of a job (cancelled or timed out) and returns them. */
  withdrawPendingOffers(trx: Knex, jobId: string): Promise<OfferRow[]>;
  findOfferForDriver(trx: Knex, id: string, driverId: string, options?: { forUpdate?: boolean }): Promise<OfferRow | undefined>;
  openOffersForDriver(driverId: string): Promise<OfferRow[]>;
  isExpired(trx: Knex, offerId: string): Promise<boolean>;
}

/** The Postgres `dispatch_offers` table. */
export function createOffersRepository(db: Knex): OffersRepository {
  return {
    async insertOffer(trx, offer, ttlSeconds) {
      const [row] = await trx('dispatch_offers')
        .insert({
          ...offer,
          status: 'pending',
          pickup: JSON.stringify(offer.pickup),
          dropoff: JSON.stringify(offer.dropoff),
          expires_at: trx.raw(`now() + make_interval(secs => ?)`, [ttlSeconds]),
        })
        .returning('*');
      return row as OfferRow;
    },
    async askedDriverIds(trx, jobId) {
      const rows: { driver_id: string }[] = await trx('dispatch_offers').select('driver_id').where({ job_id: jobId });
      return new Set(rows.map((r) => r.driver_id));
    },
    async hasPendingOffer(trx, jobId) {
      return Boolean(await trx('dispatch_offers').where({ job_id: jobId, status: 'pending' }).first('id'));
    },
    async closeOffer(trx, where, status) {
      const [row] = await trx('dispatch_offers')
        .where({ ...where, status: 'pending' })
        .update({ status, responded_at: trx.fn.now() })
        .returning('*');
      return row as OfferRow | undefined;
    },
    async withdrawPendingOffers(trx, jobId) {
      return (await trx('dispatch_offers').where({ job_id: jobId, status: 'pending' }).update({ status: 'withdrawn', responded_at: trx.fn.now() }).returning('*')) as OfferRow[];
    },
    async findOfferForDriver(trx, id, driverId, options = {}) {
      const query = trx('dispatch_offers').where({ id, driver_id: driverId });
      if (options.forUpdate) query.forUpdate();
      return (await query.first()) as OfferRow | undefined;
    },
    async openOffersForDriver(driverId) {
      return (await db('dispatch_offers').where({ driver_id: driverId, status: 'pending' }).andWhere('expires_at', '>', db.fn.now()).orderBy('created_at')) as OfferRow[];
    },
    async isExpired(trx, offerId) {
      const row = await trx('dispatch_offers').where({ id: offerId }).andWhere('expires_at', '<=', trx.fn.now()).first('id');
      return Boolean(row);
    },
  };
}
