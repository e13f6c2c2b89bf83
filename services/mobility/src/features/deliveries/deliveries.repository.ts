import type { Knex } from '@platform/service-kit/db';
import type { WeightTier } from '../../platform/pricing';
import { createKnexJobRepository, type JobLookup, type JobPlaceColumns, type JobRepository } from '../jobs';
import type { DeliveryStatus } from './delivery-status';

export type DeliveryCancelledBy = 'partner' | 'system';

/** The row; its pick-up and drop-off columns are the ones every job table has. */
export interface DeliveryRow extends JobPlaceColumns {
  id: string;
  partner_id: string;
  status: DeliveryStatus;
  weight_tier: WeightTier;
  sender_name: string;
  sender_phone: string;
  recipient_name: string;
  recipient_phone: string;
  notes: string | null;
  fee_amount: number;
  fee_currency: string;
  pin_hash: string;
  pin_failed_attempts: number;
  courier_id: string | null;
  failure_reason: string | null;
  cancelled_by: DeliveryCancelledBy | null;
  received_by: string | null;
  photo_url: string | null;
  delivered_lat: number | null;
  delivered_lng: number | null;
  delivered_at: Date | null;
  /** SHA-256 (hex) of the public tracking token; null for deliveries made before tracking existed. */
  tracking_token_hash: string | null;
  /** Every status change after `pending`, oldest first (appended by updateDeliveryStatus). */
  status_timeline: DeliveryTimelineEntry[];
  /** false: a test-mode delivery (sandbox). */
  livemode: boolean;
  /** Test mode: where the sandbox courier is along the route line (0 pick-up, 1 drop-off, negative before the pick-up). */
  sandbox_courier_progress: number | null;
  sequence: number;
  created_at: Date;
  updated_at: Date;
}

/** One status change as stored: `at` is Postgres' JSON rendering of the transaction's time. */
export interface DeliveryTimelineEntry {
  status: DeliveryStatus;
  at: string;
}

export type NewDeliveryRow = Pick<
  DeliveryRow,
  | 'id'
  | 'partner_id'
  | 'weight_tier'
  | 'pickup_lat'
  | 'pickup_lng'
  | 'pickup_address'
  | 'dropoff_lat'
  | 'dropoff_lng'
  | 'dropoff_address'
  | 'sender_name'
  | 'sender_phone'
  | 'recipient_name'
  | 'recipient_phone'
  | 'notes'
  | 'fee_amount'
  | 'fee_currency'
  | 'pin_hash'
  | 'tracking_token_hash'
  | 'livemode'
>;

/** Columns a status change may set besides the status. */
export type DeliveryChange = Partial<
  Pick<DeliveryRow, 'courier_id' | 'failure_reason' | 'cancelled_by' | 'received_by' | 'photo_url' | 'delivered_lat' | 'delivered_lng' | 'sandbox_courier_progress'>
> & { delivered_at?: Knex.Raw };

export type DeliveryLookup = JobLookup<'courierId'>;

/** A status change: the new status and the columns it may set besides it. */
export type DeliveryStatusChange = DeliveryChange & { status: DeliveryStatus };

/**
 * The deliveries table (a job table: a status change also appends to the delivery's timeline) and its PIN counter.
 */
export interface DeliveriesRepository extends JobRepository<DeliveryRow, NewDeliveryRow, DeliveryLookup, DeliveryStatusChange> {
  /**
   * Counts one wrong PIN. Conditional on the counter being under the limit, so concurrent wrong tries can never push it
   * past `max`; answers the new count, or undefined when it was already at the limit.
   */
  countWrongPin(trx: Knex, id: string, max: number): Promise<number | undefined>;
}

/** The Postgres deliveries table. */
export function createKnexDeliveriesRepository(): DeliveriesRepository {
  const jobs = createKnexJobRepository<DeliveryRow, NewDeliveryRow, DeliveryLookup, DeliveryStatusChange>({
    table: 'deliveries',
    scopeOf: (lookup) => ({ partner_id: lookup.partnerId, livemode: lookup.livemode, courier_id: lookup.courierId }),
    alsoSet: (trx, change) => ({ status_timeline: trx.raw(`status_timeline || jsonb_build_array(jsonb_build_object('status', ?::text, 'at', now()))`, [change.status]) }),
  });
  return {
    ...jobs,
    async countWrongPin(trx, id, max) {
      const [row] = await trx('deliveries')
        .where({ id })
        .andWhere('pin_failed_attempts', '<', max)
        .update({ pin_failed_attempts: trx.raw('pin_failed_attempts + 1') })
        .returning('pin_failed_attempts');
      return (row as { pin_failed_attempts: number } | undefined)?.pin_failed_attempts;
    },
  };
}
