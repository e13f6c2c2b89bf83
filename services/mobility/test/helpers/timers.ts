import { waitFor } from '@platform/test-kit';
import type { DispatchTimerJob } from '../../src/features/dispatch/dispatch.timers';
import type { TestContext } from './context';

/**
 * Fires a dispatch timer now instead of waiting out its delay: waits until the delayed job for `subjectId` (an offer id
 * for `offer-expiry`, a ride or delivery id otherwise) is scheduled, then promotes it, so the worker runs it as it
 * would when the delay ran out. A search retry is an entry of the retries' sorted set: it is brought forward to now,
 * and the worker's sweeper takes it.
 */
export async function fireTimer(ctx: TestContext, name: DispatchTimerJob['name'], subjectId: string): Promise<void> {
  if (name === 'search-retry') {
    await waitFor(() => ctx.services.timers.retries.bringForward(subjectId), `a search retry for ${subjectId}`);
    return;
  }
  await waitFor(async () => {
    const delayed = await ctx.services.timers.queue.getDelayed();
    const job = delayed.find((candidate) => candidate.name === name && (candidate.data.offerId ?? candidate.data.id) === subjectId);
    if (!job) return false;
    await job.promote();
    return true;
  }, `a delayed ${name} job for ${subjectId}`);
}
