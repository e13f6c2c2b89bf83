import { ApiError, NotFoundError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { Page } from '@platform/service-kit/pagination';
import type { ImageData } from '../../platform/image-data';
import { DELIVERY_PRICING, deliveryFeeFor, tripMeters, type WeightTier } from '../../platform/pricing';
import type { PartnerAccount } from '../api-keys';
import type { Driver, FleetLocations } from '../fleet';
import { createAndDispatch, type JobCreationDeps, jobListFilter, type JobListQuery, placeColumns, type PlaceInput } from '../jobs';
import { MAX_PIN_ATTEMPTS, generatePin, hashPin, pinFingerprint, verifyPin } from './delivery-pin';
import type { DeliveryLifecycle } from './delivery-lifecycle';
import type { DeliveryQuoteService } from './delivery-quotes';
import { nextDeliveryStatus } from './delivery-status';
import { presentDelivery, type DeliveryTrackingLinks, type DeliveryView } from './delivery.presenter';
import type { DeliveriesRepository } from './deliveries.repository';
import type { DeliveryProofRepository } from './delivery-proof.repository';

export interface Contact {
  name: string;
  phone: string;
}

export interface CreateDeliveryInput {
  pickup: PlaceInput;
  dropoff: PlaceInput;
  sender: Contact;
  recipient: Contact;
  weight_tier: WeightTier;
  security_pin?: string;
  notes?: string;
  /** A delivery quote of the partner's, still valid, for this pickup, drop-off and weight tier: the delivery pays its fee. */
  quote_id?: string;
}

export interface DeliverInput {
  pin: string;
  received_by?: string;
  photo_url?: string;
  /** Proof images, stored as bytes (the tracking page serves them from the platform's origin). */
  photo?: ImageData;
  signature?: ImageData;
}

/** The create answer: the delivery, plus the generated PIN in the first answer only. */
export type CreatedDelivery = DeliveryView & { security_pin?: string };

/** The dispatcher only starts the search; it moves the delivery itself through the delivery's dispatch handler. */
export interface DeliveryServiceDeps extends JobCreationDeps {
  repository: DeliveriesRepository;
  proofs: DeliveryProofRepository;
  lifecycle: DeliveryLifecycle;
  /** Where the courier was when delivering: the proof of delivery's location. */
  locations: Pick<FleetLocations, 'telemetry'>;
  pinFingerprintKey: string;
  quotes: Pick<DeliveryQuoteService, 'quotedFee'>;
  tracking: DeliveryTrackingLinks;
}

export function createDeliveryService({ db, repository, proofs, lifecycle, dispatcher, locations, logger, pinFingerprintKey, quotes, tracking }: DeliveryServiceDeps) {
  /** The body the idempotency key is compared on: the PIN only as a keyed fingerprint, never in the clear. */
  function fingerprintBody(input: CreateDeliveryInput): unknown {
    return input.security_pin === undefined ? input : { ...input, security_pin: pinFingerprint(input.security_pin, pinFingerprintKey) };
  }

  return {
    /**
     * Creates a pending delivery and starts the search. The stored idempotent answer never holds the PIN, so a replay
     * answers the delivery without `security_pin`.
     */
    async createDelivery(account: PartnerAccount, input: CreateDeliveryInput, idempotencyKey?: string): Promise<{ status: number; body: CreatedDelivery; replayed: boolean }> {
      const { partnerId, livemode } = account;
      const generated = input.security_pin === undefined ? generatePin() : undefined;
      const pinHash = await hashPin(input.security_pin ?? generated!);
      const search = { fleetKind: 'courier' as const, tier: DELIVERY_PRICING[input.weight_tier].courierTier, pickup: input.pickup };
      const request = { kind: 'delivery' as const, partnerId, livemode, scope: 'POST /api/v1/deliveries', idempotencyKey, body: fingerprintBody(input), search };
      const answer = await createAndDispatch({ db, dispatcher, logger }, request, async (trx) => {
        const meters = tripMeters(input.pickup, input.dropoff);
        // A quote books its own fee (checked in this transaction); without one the fee is today's price.
        const fee = input.quote_id ? await quotes.quotedFee(trx, account, input.quote_id, input) : deliveryFeeFor(input.weight_tier, meters);
        const id = newId('dlv');
        const delivery = await repository.insert(trx, {
          id,
          partner_id: partnerId,
          livemode,
          weight_tier: input.weight_tier,
          ...placeColumns(input),
          sender_name: input.sender.name,
          sender_phone: input.sender.phone,
          recipient_name: input.recipient.name,
          recipient_phone: input.recipient.phone,
          notes: input.notes ?? null,
          fee_amount: fee.amount,
          fee_currency: fee.currency,
          pin_hash: pinHash,
          tracking_token_hash: tracking.hashFor(id),
        });
        return presentDelivery(delivery, undefined, null, tracking);
      });
      if (answer.replayed) return answer;
      return { ...answer, body: generated ? { ...answer.body, security_pin: generated } : answer.body };
    },

    async getDelivery({ partnerId, livemode }: PartnerAccount, id: string): Promise<DeliveryView> {
      return lifecycle.get({ id, partnerId, livemode });
    },

    /** The partner's deliveries, newest first. */
    async listDeliveries(account: PartnerAccount, query: JobListQuery): Promise<Page<DeliveryView>> {
      return lifecycle.page(await repository.list(db, jobListFilter(account, query)), query.limit);
    },

    async cancelByPartner({ partnerId, livemode }: PartnerAccount, id: string): Promise<DeliveryView> {
      return lifecycle.commit(async (trx) => lifecycle.endJob(trx, await lifecycle.lock(trx, { id, partnerId, livemode }), 'cancel', { cancelled_by: 'partner' }));
    },

    async pickUp(courier: Driver, id: string): Promise<DeliveryView> {
      const telemetry = await lifecycle.telemetryOf(courier.id);
      return db.transaction(async (trx) => lifecycle.changeStatus(trx, await lifecycle.lock(trx, { id, courierId: courier.id }), 'pick_up', {}, telemetry));
    },

    async fail(courier: Driver, id: string, reason: string): Promise<DeliveryView> {
      return lifecycle.commit(async (trx) => lifecycle.endJob(trx, await lifecycle.lock(trx, { id, courierId: courier.id }), 'fail', { failure_reason: reason }));
    },

    /**
     * Completes with the recipient's PIN. A wrong PIN commits only the attempt counter (then answers 403 `invalid_pin`);
     * at MAX_PIN_ATTEMPTS wrong tries the PIN is locked (403 `pin_locked`, even for the right PIN) and only `fail` remains.
     */
    async deliver(courier: Driver, id: string, input: DeliverInput): Promise<DeliveryView> {
      // The hash never changes, so the (deliberately slow) scrypt runs before the row lock and holds no connection.
      const found = await repository.find(db, { id, courierId: courier.id });
      if (!found) throw new NotFoundError('Delivery not found');
      const pinMatches = await verifyPin(input.pin, found.pin_hash);
      const at = await locations.telemetry(courier.id); // where it was handed over, read before the row lock
      const outcome = await db.transaction(async (trx) => {
        const delivery = await lifecycle.lock(trx, { id, courierId: courier.id });
        nextDeliveryStatus(delivery.status, 'deliver'); // a disallowed move is a 409 and does not count as a try
        if (delivery.pin_failed_attempts >= MAX_PIN_ATTEMPTS) return { refused: pinLocked() };
        if (!pinMatches) {
          const attempts = await repository.countWrongPin(trx, delivery.id, MAX_PIN_ATTEMPTS);
          return { refused: attempts === undefined ? pinLocked() : wrongPin(MAX_PIN_ATTEMPTS - attempts) };
        }
        await proofs.insertProofImages(trx, delivery.id, { photo: input.photo, signature: input.signature });
        return lifecycle.endJob(trx, delivery, 'deliver', {
          received_by: input.received_by ?? null,
          photo_url: input.photo_url ?? null,
          delivered_lat: at?.lat ?? null,
          delivered_lng: at?.lng ?? null,
          delivered_at: trx.fn.now(),
        });
      });
      if ('refused' in outcome) throw outcome.refused; // after commit, so the counter is kept
      return lifecycle.afterCommit(outcome);
    },
  };
}

function wrongPin(remaining: number): ApiError {
  const message = remaining === 0 ? 'Wrong PIN; no tries left, the PIN is now locked' : `Wrong PIN; ${remaining} ${remaining === 1 ? 'try' : 'tries'} left`;
  return new ApiError(403, 'invalid_pin', message, { remaining_attempts: remaining });
}

function pinLocked(): ApiError {
  return new ApiError(403, 'pin_locked', 'The PIN is locked after too many wrong tries; the delivery can only be reported as failed', { remaining_attempts: 0 });
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
