/**
 * At most `limit` requests per endpoint in flight in this process. When an endpoint is at its limit, a job waits for
 * a slot only while that endpoint is visibly moving (a request to it finished within the last `movingWindowMs`):
 * a healthy, busy endpoint keeps its pace, while a hanging one makes the job give its worker slot back at once.
 */
export function createEndpointSlots(limit: number, movingWindowMs = 1000, maxWaitMs = 1000) {
  const inFlight = new Map<string, number>();
  const lastFinishedAt = new Map<string, number>();
  const waiters = new Map<string, (() => void)[]>();

  function tryTake(endpointId: string): boolean {
    const count = inFlight.get(endpointId) ?? 0;
    if (count >= limit) return false;
    inFlight.set(endpointId, count + 1);
    return true;
  }

  const moving = (endpointId: string) => Date.now() - (lastFinishedAt.get(endpointId) ?? 0) < movingWindowMs;

  return {
    /** Whether `acquire` would answer false at once: the endpoint is at its limit and not answering. */
    wouldRefuse(endpointId: string): boolean {
      return (inFlight.get(endpointId) ?? 0) >= limit && !moving(endpointId);
    },

    /** True with a slot taken; false when the caller should come back later. */
    async acquire(endpointId: string): Promise<boolean> {
      if (tryTake(endpointId)) return true; // synchronous: concurrent callers cannot all pass
      if (!moving(endpointId)) return false;
      return new Promise<boolean>((resolve) => {
        const queue = waiters.get(endpointId) ?? [];
        const handOver = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          const at = queue.indexOf(handOver);
          if (at >= 0) queue.splice(at, 1);
          resolve(false);
        }, maxWaitMs);
        queue.push(handOver);
        waiters.set(endpointId, queue);
      });
    },

    release(endpointId: string): void {
      lastFinishedAt.set(endpointId, Date.now());
      const next = waiters.get(endpointId)?.shift();
      if (next) return next(); // the slot passes straight to a waiting job
      if (waiters.get(endpointId)?.length === 0) waiters.delete(endpointId);
      const left = (inFlight.get(endpointId) ?? 1) - 1;
      if (left > 0) inFlight.set(endpointId, left);
      else inFlight.delete(endpointId);
    },
  };
}
