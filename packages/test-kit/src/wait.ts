import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up after this long (default 20 s); tests never assert on how long a wait took. */
  timeoutMs?: number;
  /** Pause between two checks (default 25 ms). */
  intervalMs?: number;
  /** More to say when the wait times out, such as the last output of a child process. */
  context?: () => string;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Polls `check` until it answers a truthy value, which it returns. A check that throws (a failed `expect`) is
 * "not yet" too; on timeout the last error is thrown again, so the test fails with the assertion that never held.
 */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, options: WaitOptions = {}): Promise<Truthy<T>> {
  const deadline = Date.now() + (options.timeoutMs ?? 20000);
  for (;;) {
    let last: { value: T } | { error: unknown };
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() > deadline) {
      const context = options.context ? `\n${options.context()}` : '';
      if ('error' in last) {
        if (last.error instanceof Error) last.error.message = `timed out waiting for ${what}: ${last.error.message}${context}`;
        throw last.error;
      }
      throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last.value)})${context}`);
    }
    await delay(options.intervalMs ?? 25);
  }
}

/** Waits until `expectation` runs without throwing and returns what it returned (the expectation form of waitFor). */
export async function eventually<T>(expectation: () => Promise<T> | T, options: WaitOptions = {}): Promise<T> {
  const passed = await waitFor(async () => ({ value: await expectation() }), 'the expectation to hold', options);
  return passed.value;
}

/** The BullMQ queue calls a drain check needs (structural, so test-kit does not depend on bullmq). */
export interface CountableQueue {
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'];

/**
 * Waits until none of the queues holds a job still to run (waiting, active, delayed or prioritized): the way to say
 * "nothing more will happen" without sleeping for a guessed time.
 */
export async function waitForDrained(queues: CountableQueue | CountableQueue[], options: WaitOptions = {}): Promise<void> {
  const all = Array.isArray(queues) ? queues : [queues];
  await waitFor(
    async () => {
      for (const queue of all) {
        const counts = await queue.getJobCounts(...UNFINISHED);
        if (UNFINISHED.some((type) => (counts[type] ?? 0) > 0)) return false;
      }
      return true;
    },
    'the queue to drain',
    options,
  );
}
