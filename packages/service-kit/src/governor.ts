import type { Request, RequestHandler } from 'express';
import { ApiError } from './errors';
import { FairShare } from './fair-share';
import type { CostClass } from './route-spec';

/**
 * The fair-share governor: one per process, holding a `GovernedResource` per cost class the route table names (render
 * and preview slots, bulk imports, stream slots, mail sends…). A unit is held while the operation's request is in flight
 * (from before its body is read until its answer is done or its client went away), and it is counted three ways:
 *
 * - per organization (`perOrganization`, by plan; the account's cap when not given);
 * - per account, the unit sign-up creates and that may own several organizations (`perAccount`, by plan: a free account
 *   gets fewer than a paying one), so making organizations does not multiply what one sign-up may hold;
 * - per process (`perProcess`), a soft total shared fairly among the accounts holding units (`FairShare`, a paying
 *   account weighing `paidWeight`, a free one 1): once it is reached, only accounts at or over their share are refused,
 *   so any number of accounts flooding cannot keep another from its first unit.
 */
export type Plan = 'free' | 'paid';

/** Who spends a unit: the organization, the account that owns it (or, unauthenticated, the client address) and its plan. */
export interface Tenant {
  account: string;
  organization: string;
  plan: Plan;
}

export interface ResourceLimits {
  /** What a unit is, for the refusal's message ("template previews and uploads"). */
  what: string;
  perProcess: number;
  perAccount: Record<Plan, number>;
  perOrganization?: Record<Plan, number>;
  /**
   * Units one account may start per minute, by plan (a token bucket refilled evenly over the minute, holding a quarter
   * minute's starts), so an account cannot keep the resource busy with quick requests one after another. None when absent.
   */
  perAccountPerMinute?: Record<Plan, number>;
  /** A paying account's weight in the fair share of the process total (a free account weighs 1). */
  paidWeight: number;
}

export type RefusalScope = 'organization' | 'account' | 'process' | 'rate';

/**
 * A unit refused: 429 with `Retry-After`, naming which count refused it: `too_many_in_flight` for the counts of units
 * held, `rate_limited` for the account's units per minute.
 */
export class OverShareError extends ApiError {
  constructor(
    readonly scope: RefusalScope,
    message: string,
    retryAfterSeconds = 1,
  ) {
    super(429, scope === 'rate' ? 'rate_limited' : 'too_many_in_flight', message, {}, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * Accounts' token buckets of one resource, refilled at `perMinute` tokens a minute and holding a quarter of that (a
 * burst of a quarter minute's starts), so a flood that waited cannot spend a whole minute's starts at once.
 */
class MinuteBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** Takes a token of `account`'s bucket, or answers the seconds until one is there. */
  take(account: string, perMinute: number, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const perMs = perMinute / 60_000;
    const capacity = Math.max(1, Math.ceil(perMinute / 4));
    const bucket = this.buckets.get(account) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.buckets.set(account, bucket);
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    }
    bucket.tokens -= 1;
    this.buckets.set(account, bucket);
    if (this.buckets.size > 10_000) this.forgetFull(now);
    return { ok: true };
  }

  /** Buckets that have refilled hold nothing worth remembering. */
  private forgetFull(now: number): void {
    for (const [account, bucket] of this.buckets) if (now - bucket.at > 60_000) this.buckets.delete(account);
  }
}

/** A unit held: give it back once (a second call does nothing). */
export type Release = () => void;

export class GovernedResource {
  private readonly byOrganization = new Map<string, number>();
  private readonly byAccount: FairShare;
  private readonly starts = new MinuteBuckets();

  constructor(readonly limits: ResourceLimits) {
    this.byAccount = new FairShare(limits.perProcess);
  }

  /** Takes one unit for `tenant`, or throws `OverShareError` naming the count that refuses it (nothing is taken then). */
  acquire(tenant: Tenant): Release {
    const { what, perAccount } = this.limits;
    const perOrganization = (this.limits.perOrganization ?? perAccount)[tenant.plan];
    const organizationHolds = this.byOrganization.get(tenant.organization) ?? 0;
    if (organizationHolds >= perOrganization) {
      throw new OverShareError('organization', `This organization already has ${organizationHolds} ${what} in flight (at most ${perOrganization}); retry when one is done`);
    }
    const accountHolds = this.byAccount.heldBy(tenant.account);
    if (accountHolds >= perAccount[tenant.plan]) {
      throw new OverShareError('account', `Your account's organizations already have ${accountHolds} ${what} in flight (at most ${perAccount[tenant.plan]} on the ${tenant.plan} plan); retry when one is done`);
    }
    const weight = this.weightOf(tenant.plan);
    if (!this.byAccount.admits(tenant.account, 1, weight)) {
      throw new OverShareError('process', `This server is busy with ${what} and your account holds its share of them; retry shortly`);
    }
    const perMinute = this.limits.perAccountPerMinute?.[tenant.plan];
    if (perMinute !== undefined) {
      const started = this.starts.take(tenant.account, perMinute);
      if (!started.ok) {
        throw new OverShareError('rate', `Your account's organizations are starting ${what} faster than ${perMinute} a minute, the ${tenant.plan} plan's pace; retry after ${started.retryAfterSeconds} s`, started.retryAfterSeconds);
      }
    }
    this.byAccount.take(tenant.account, 1, weight);
    this.byOrganization.set(tenant.organization, organizationHolds + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.byAccount.give(tenant.account, 1);
      const left = (this.byOrganization.get(tenant.organization) ?? 1) - 1;
      if (left > 0) this.byOrganization.set(tenant.organization, left);
      else this.byOrganization.delete(tenant.organization);
    };
  }

  /** Units held right now (every tenant). */
  get inUse(): number {
    return this.byAccount.inUse;
  }

  heldByAccount(account: string): number {
    return this.byAccount.heldBy(account);
  }

  private weightOf(plan: Plan): number {
    return plan === 'paid' ? this.limits.paidWeight : 1;
  }
}

/** The governed resources of one process, by the cost class the route table declares. */
export type Governor = Partial<Record<CostClass, GovernedResource>>;

export function createGovernor(limits: Partial<Record<CostClass, ResourceLimits>>): Governor {
  return Object.fromEntries(Object.entries(limits).map(([cost, resourceLimits]) => [cost, new GovernedResource(resourceLimits!)])) as Governor;
}

/**
 * The route table's cost hooks (`OperationGuards.costs`): for each governed class, a middleware that takes one unit for
 * the caller's tenant before the body is read and gives it back when the answer is done or the client went away; a
 * refusal is the error handler's 429. `tenantOf` names the tenant from what the security guard established (it may
 * look it up).
 */
export function costHooks(governor: Governor, tenantOf: (req: Request) => Tenant | Promise<Tenant>): Partial<Record<CostClass, RequestHandler[]>> {
  const hooks: Partial<Record<CostClass, RequestHandler[]>> = {};
  for (const [cost, resource] of Object.entries(governor) as [CostClass, GovernedResource][]) {
    hooks[cost] = [
      (req, res, next) => {
        Promise.resolve()
          .then(() => tenantOf(req))
          .then((tenant) => resource.acquire(tenant))
          .then((release) => {
            res.once('close', release);
            res.once('finish', release);
            next();
          }, next);
      },
    ];
  }
  return hooks;
}
