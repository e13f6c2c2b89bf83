import { ConflictError, NotFoundError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { FleetLocations, IndexScope } from '../fleet';
import type { DispatchTimers, SearchWindow } from './dispatch.timers';
import type { DispatchJob, DriverPool, JobHandler, JobKind } from './dispatch.types';
import type { DriverRelease } from './driver-release';
import type { OfferRow, OffersRepository } from './offers.repository';
import type { z } from 'zod';
import type { offerResponse } from './offers.schema';

export interface DispatchSettings {
  radiusMeters: number;
  offerTtlSeconds: number;
  searchTimeoutSeconds: number;
}

/** How many nearest indexed drivers one search considers; busy or already-asked ones are skipped. */
const CANDIDATES_PER_SEARCH = 25;

export function toOfferView(offer: OfferRow): z.input<typeof offerResponse> {
  return {
    id: offer.id,
    kind: offer.kind,
    ...(offer.kind === 'ride' ? { ride_id: offer.job_id } : { delivery_id: offer.job_id }),
    pickup: offer.pickup,
    dropoff: offer.dropoff,
    expires_at: offer.expires_at.toISOString(),
  };
}

/**
 * Offers a job to the nearest free driver of its tier, one driver at a time. A driver is claimed (drivers.current_job_id)
 * when offered, so nobody is offered or holds two jobs; a decline or expiry frees the driver and asks the next nearest
 * driver not asked yet; nobody accepting before the search timeout ends the search.
 */
export interface DispatcherDeps {
  db: Knex;
  offers: OffersRepository;
  locations: FleetLocations;
  drivers: DriverPool;
  release: DriverRelease;
  timers: DispatchTimers;
  /** One handler per job kind, given when the dispatcher is built (services.ts), so dispatch never imports a job feature. */
  handlers: JobHandler[];
  settings: DispatchSettings;
}

export class Dispatcher {
  private readonly db: Knex;
  private readonly offers: OffersRepository;
  private readonly locations: FleetLocations;
  private readonly drivers: DriverPool;
  private readonly release: DriverRelease;
  private readonly timers: DispatchTimers;
  private readonly settings: DispatchSettings;
  private readonly handlers: ReadonlyMap<JobKind, JobHandler>;

  constructor(deps: DispatcherDeps) {
    ({ db: this.db, offers: this.offers, locations: this.locations, drivers: this.drivers, release: this.release, timers: this.timers, settings: this.settings } = deps);
    this.handlers = new Map(deps.handlers.map((handler) => [handler.kind, handler]));
  }

  private handler(kind: JobKind): JobHandler {
    const handler = this.handlers.get(kind);
    if (!handler) throw new Error(`no dispatch handler for ${kind}`);
    return handler;
  }

  private get retryDelayMs(): number {
    return Math.max(250, Math.min(5000, (this.settings.searchTimeoutSeconds * 1000) / 8));
  }

  /** Called in the transaction that creates the job: the timers exist as soon as the job does (both in one round trip). */
  async scheduleSearch(job: Pick<DispatchJob, 'kind' | 'id' | 'partnerId' | 'fleetKind' | 'tier' | 'pickup'>): Promise<void> {
    const { kind, id, ...search } = job;
    await this.timers.startSearch(kind, id, this.settings.searchTimeoutSeconds * 1000, this.retryDelayMs, { ...search, pickup: { lat: search.pickup.lat, lng: search.pickup.lng } });
  }

  /**
   * The first search of a job just created (its timers scheduled): one GEOSEARCH, and the locked search (`offerNext`)
   * only when somebody the job may be offered is in range. Nobody in range is the answer the locked search would reach,
   * and its retry is already scheduled, so it is settled without a transaction.
   */
  async firstSearch(job: Pick<DispatchJob, 'kind' | 'id' | 'partnerId' | 'fleetKind' | 'tier' | 'pickup'>): Promise<OfferRow | undefined> {
    if (!(await this.locations.anyNearby(job.fleetKind, job.tier, job.partnerId, job.pickup, this.settings.radiusMeters))) return undefined;
    return this.offerNext(job.kind, job.id);
  }

  /** After a job stopped searching (its change committed): its waiting search timers are removed (best effort). */
  async searchEnded(job: { id: string }, except: { timeout?: boolean } = {}): Promise<void> {
    await this.timers.stopSearch(job.id, except);
  }

  /** Offers the job to the nearest free driver not asked yet, unless an offer is open or the job stopped searching. */
  async offerNext(kind: JobKind, id: string): Promise<OfferRow | undefined> {
    const outcome = await this.db.transaction(async (trx) => {
      const job = await this.handler(kind).lockSearching(trx, id); // serializes searches for one job
      if (!job) return { next: 'stop' as const };
      if (await this.offers.hasPendingOffer(trx, id)) return { next: 'await_answer' as const }; // its expiry timer moves on
      const found = await this.offerToNearestFree(trx, job);
      if (!found) return { next: 'retry' as const };
      await this.timers.offerExpiry(found.offer.id, this.settings.offerTtlSeconds * 1000);
      return { next: 'await_answer' as const, offer: found.offer, scope: found.scope, job };
    });
    if (outcome.next === 'retry') await this.timers.searchRetry(kind, id, this.retryDelayMs);
    if (outcome.offer) await this.locations.removeFromIndex(outcome.job.fleetKind, outcome.job.tier, outcome.scope, outcome.offer.driver_id);
    return outcome.offer;
  }

  /**
   * The search-retry timer: `offerNext` after a first look (`nobodyInRange`), since a job still waiting at its retry
   * usually has nobody in range yet.
   */
  async retrySearch(kind: JobKind, id: string, search?: SearchWindow): Promise<OfferRow | undefined> {
    if (search ? await this.nobodyInWindow(kind, id, search) : await this.nobodyInRange(kind, id)) return undefined;
    return this.offerNext(kind, id);
  }

  /**
   * The first look of a retry that knows where its job searches: one GEOSEARCH. Nobody in range: the next retry is
   * scheduled while the search window lasts, without reading Postgres (a job that stopped searching had its retries
   * removed, and one that slipped through polls only until the window ends; the search timeout ends the job itself).
   * Anybody in range goes on to the locked search, which checks everything.
   */
  private async nobodyInWindow(kind: JobKind, id: string, search: SearchWindow): Promise<boolean> {
    if (await this.locations.anyNearby(search.fleetKind, search.tier, search.partnerId, search.pickup, this.settings.radiusMeters)) return false;
    if (Date.now() + this.retryDelayMs < search.until) await this.timers.searchRetry(kind, id, this.retryDelayMs, search);
    return true;
  }

  /**
   * A first look without a transaction, for a job waiting for a driver to come near: true (settled,
   * retry scheduled when due) when the job has stopped searching, or when nobody is in range at all and no offer is open,
   * which are the answers the locked search would reach, for one read and one GEOSEARCH instead of a transaction of five
   * statements. Anything else goes on to the locked search, which checks everything again.
   */
  private async nobodyInRange(kind: JobKind, id: string): Promise<boolean> {
    const job = await this.handler(kind).findSearching(this.db, id);
    if (!job) return true;
    if (await this.locations.anyNearby(job.fleetKind, job.tier, job.partnerId, job.pickup, this.settings.radiusMeters)) return false;
    if (!(await this.offers.hasPendingOffer(this.db, id))) await this.timers.searchRetry(kind, id, this.retryDelayMs);
    return true;
  }

  /** Candidates come from the partner's and the platform's indexes only; the claim re-checks both in Postgres. */
  private async offerToNearestFree(trx: Knex.Transaction, job: DispatchJob): Promise<{ offer: OfferRow; scope: IndexScope } | undefined> {
    const asked = await this.offers.askedDriverIds(trx, job.id);
    const nearby = await this.locations.nearest(job.fleetKind, job.tier, job.partnerId, job.pickup, this.settings.radiusMeters, CANDIDATES_PER_SEARCH + asked.size);
    for (const { driverId, scope } of nearby) {
      if (asked.has(driverId)) continue;
      if (!(await this.drivers.claimDriver(trx, driverId, job.id, job.partnerId))) continue; // busy, offline, disabled or taken by a concurrent search
      const offer = await this.offers.insertOffer(trx, { id: newId('ofr'), kind: job.kind, job_id: job.id, driver_id: driverId, pickup: job.pickup, dropoff: job.dropoff }, this.settings.offerTtlSeconds);
      return { offer, scope };
    }
    return undefined;
  }

  async openOffers(driverId: string) {
    return (await this.offers.openOffersForDriver(driverId)).map(toOfferView);
  }

  /**
   * The driver takes the job; answers the job as its GET shows it. Locks the job before the offer, the same order as
   * cancellation and time-out, so a cancel racing an accept waits instead of deadlocking.
   */
  async accept(driverId: string, offerId: string): Promise<Record<string, unknown>> {
    const telemetry = await this.locations.telemetry(driverId); // read before the locks: the job's view shows it
    const view = await this.db.transaction(async (trx) => {
      const found = await this.offers.findOfferForDriver(trx, offerId, driverId);
      if (!found) throw new NotFoundError('Offer not found');
      const handler = this.handler(found.kind);
      const job = await handler.lockSearching(trx, found.job_id);
      const offer = (await this.offers.findOfferForDriver(trx, offerId, driverId, { forUpdate: true }))!;
      if (offer.status !== 'pending') throw new ConflictError(`Offer is ${offer.status}`, 'offer_closed');
      if (await this.offers.isExpired(trx, offer.id)) throw new ConflictError('Offer is expired', 'offer_closed');
      if (!job) throw new ConflictError(`The ${offer.kind} is no longer available`, 'offer_closed');
      await this.offers.closeOffer(trx, { id: offer.id }, 'accepted');
      return { assigned: await handler.assign(trx, offer.job_id, driverId, telemetry), offer };
    });
    await this.settleTimers(() => Promise.all([this.timers.removeOfferExpiry(view.offer.id), this.searchEnded({ id: view.offer.job_id })]));
    return view.assigned;
  }

  /** Removing timers that would find nothing to do is an optimisation: a failure leaves them to run (and find nothing). */
  private async settleTimers(remove: () => Promise<unknown>): Promise<void> {
    await remove().catch(() => undefined);
  }

  async decline(driverId: string, offerId: string): Promise<{ id: string; status: 'declined' }> {
    const offer = await this.db.transaction(async (trx) => {
      const found = await this.offers.findOfferForDriver(trx, offerId, driverId);
      if (!found) throw new NotFoundError('Offer not found');
      const closed = await this.offers.closeOffer(trx, { id: offerId, driver_id: driverId }, 'declined');
      if (!closed) throw new ConflictError(`Offer is ${found.status}`, 'offer_closed');
      await this.drivers.releaseDriver(trx, driverId, closed.job_id);
      return closed;
    });
    await this.afterDriverFreed(offer.driver_id);
    await this.offerNext(offer.kind, offer.job_id);
    return { id: offer.id, status: 'declined' };
  }

  async declineOpenOffers(driverId: string): Promise<void> {
    for (const offer of await this.offers.openOffersForDriver(driverId)) {
      await this.decline(driverId, offer.id).catch((error: unknown) => {
        if (!(error instanceof ConflictError)) throw error; // answered or expired meanwhile
      });
    }
  }

  /** Offer timer: an unanswered offer frees its driver and moves on to the next nearest. */
  async expireOffer(offerId: string): Promise<void> {
    const offer = await this.db.transaction(async (trx) => {
      const closed = await this.offers.closeOffer(trx, { id: offerId }, 'expired');
      if (closed) await this.drivers.releaseDriver(trx, closed.driver_id, closed.job_id);
      return closed;
    });
    if (!offer) return; // answered or withdrawn before the timer fired
    await this.afterDriverFreed(offer.driver_id);
    await this.offerNext(offer.kind, offer.job_id);
  }

  /** Search timer: a job nobody accepted in time gives up. */
  async timeOut(kind: JobKind, id: string): Promise<void> {
    const ended = await this.db.transaction(async (trx) => {
      const handler = this.handler(kind);
      if (!(await handler.lockSearching(trx, id))) return undefined;
      const withdrawn = await this.withdrawOffers(trx, id);
      return { freed: withdrawn, ...(await handler.giveUp(trx, id)) };
    });
    if (!ended) return;
    for (const driverId of ended.freed) await this.afterDriverFreed(driverId);
    await this.settleTimers(() => this.searchEnded({ id }, { timeout: true })); // this timer is the one running
  }

  /** In the caller's transaction (cancel, time-out): closes open offers and frees the drivers they held. */
  withdrawOffers(trx: Knex.Transaction, jobId: string): Promise<string[]> {
    return this.release.withdrawOffers(trx, jobId);
  }

  /** After commit: a freed driver who is still available goes back into the dispatch index. */
  afterDriverFreed(driverId: string): Promise<void> {
    return this.release.afterDriverFreed(driverId);
  }
}

/** The dispatcher, built once per process with its job handlers (services.ts). */
export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  return new Dispatcher(deps);
}
