/**
 * What one gateway process knows of each rate-limit counter, so most requests need no Redis round trip of their own.
 * A counter's state comes from a synchronous hit in Redis; while the shared count is far from the limit (more than
 * `margin` left), further hits are granted here and sent to Redis in one batch every `flushEveryMs`. Near the limit
 * every hit goes to Redis, so the limit is exact there; far from it another process's hits are seen at most one
 * flush interval late.
 */
export interface CounterState {
  /** `Date.now()` at which the counter's window ends. */
  windowEnd: number;
  /** The shared count Redis last reported, this process's unflushed hits not included. */
  shared: number;
  /** Hits granted here and not yet sent to Redis. */
  pending: number;
  /** Hits being sent right now (in flight to Redis). */
  sending: number;
}

export type FlushCommand = (key: string, hits: number, windowMs: number) => Promise<[number, number]>;

export class LocalBudget {
  private readonly counters = new Map<string, CounterState>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly perMinute: number,
    private readonly margin: number,
    private readonly windowMs: number,
    private readonly flushEveryMs: number,
    private readonly flush: FlushCommand,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Grants one hit locally and returns the counter's state, or undefined when Redis must be asked. */
  take(key: string, now: number): CounterState | undefined {
    const state = this.counters.get(key);
    if (!state || now >= state.windowEnd) return undefined;
    if (state.shared + state.pending + state.sending + 1 > this.perMinute - this.margin) return undefined;
    state.pending++;
    this.schedule();
    return state;
  }

  /** Takes back the hit `take` just granted (another counter of the same request refused to grant locally). */
  giveBack(key: string): void {
    const state = this.counters.get(key);
    if (state && state.pending > 0) state.pending--;
  }

  /** Records what Redis answered for a synchronous hit (that hit included in `count`). */
  learn(key: string, count: number, ttlMs: number, now: number): void {
    const state = this.counters.get(key);
    const windowEnd = now + ttlMs;
    if (state && Math.abs(state.windowEnd - windowEnd) < 1000) {
      state.shared = Math.max(state.shared, count);
      return;
    }
    this.counters.set(key, { windowEnd, shared: count, pending: 0, sending: 0 });
  }

  /** Forgets a counter: its next hit asks Redis. */
  forget(key: string): void {
    this.counters.delete(key);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flushAll(), this.flushEveryMs);
    this.timer.unref();
  }

  private flushAll(): void {
    this.timer = undefined;
    const now = Date.now();
    for (const [key, state] of this.counters) {
      if (now >= state.windowEnd) {
        this.counters.delete(key); // its window is over: unsent hits belonged to it
        continue;
      }
      if (state.pending === 0) continue;
      const hits = state.pending;
      state.pending = 0;
      state.sending += hits;
      this.flush(key, hits, Math.max(1, state.windowEnd - now)).then(
        ([count]) => {
          state.sending -= hits;
          state.shared = Math.max(state.shared, count);
        },
        (error: unknown) => {
          state.sending -= hits;
          this.onError(error);
        },
      );
    }
  }
}
