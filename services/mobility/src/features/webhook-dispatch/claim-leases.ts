import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import { renewClaims, type ClaimedAttempt } from './webhook-messages.repository';

type HeldClaim = Pick<ClaimedAttempt, 'messageId' | 'claimToken'>;

/**
 * The delivery claims this process holds, from their claim until their attempt is recorded. While any is held, all of
 * them are renewed every third of the lease in one statement, so a live holder keeps its claim however long its
 * request takes, and only a holder that stopped running (crashed, frozen, starved for most of a lease) loses it.
 * Each claim's lease is tracked on this process's monotonic clock from before the statement that took or renewed it
 * (never later than Postgres's own), so `stillHeld` can answer without a round trip whether it is safe to send.
 */
export function createClaimLeases(db: Knex, leaseMs: number, logger: Logger) {
  const held = new Map<string, { claimToken: string; validUntil: number }>();
  const renewEveryMs = Math.max(20, Math.floor(leaseMs / 3));
  let timer: NodeJS.Timeout | undefined;
  let renewing = false;

  async function renew(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    const startedAt = performance.now();
    const claims = [...held].map(([messageId, { claimToken }]) => ({ messageId, claimToken }));
    try {
      const stillOurs = await renewClaims(db, claims, leaseMs);
      for (const { messageId, claimToken } of claims) {
        const entry = held.get(messageId);
        if (entry?.claimToken === claimToken) entry.validUntil = stillOurs.has(messageId) ? startedAt + leaseMs : 0;
      }
    } catch (err) {
      logger.warn({ err, claims: claims.length }, 'could not renew webhook claim leases: will try again');
    } finally {
      renewing = false;
    }
  }

  return {
    /** `claimStartedAt`: performance.now() taken before the claim statement was sent. */
    hold(claim: HeldClaim, claimStartedAt: number): void {
      held.set(claim.messageId, { claimToken: claim.claimToken, validUntil: claimStartedAt + leaseMs });
      if (!timer) {
        timer = setInterval(() => void renew(), renewEveryMs);
        timer.unref();
      }
    },

    /** True while the claim's lease surely has a renewal's worth of time left: an attempt may be sent under it. */
    stillHeld(claim: HeldClaim): boolean {
      const entry = held.get(claim.messageId);
      return entry?.claimToken === claim.claimToken && performance.now() < entry.validUntil - renewEveryMs;
    },

    release(claim: HeldClaim): void {
      if (held.get(claim.messageId)?.claimToken === claim.claimToken) held.delete(claim.messageId);
      if (held.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },
  };
}
