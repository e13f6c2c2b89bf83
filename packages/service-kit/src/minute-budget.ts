import type { Redis } from './redis';
import { LocalBudget, type FlushCommand } from './local-budget';

const WINDOW_MS = 60000;
/** How often hits granted in-process reach Redis. */
const FLUSH_EVERY_MS = 50;

/**
 * Adds `ARGV[1]` hits to a fixed-window counter (the first hit of a window sets its expiry); returns {count, ttl}. The
 * gateway's rate limiter flushes its in-process hits with it too.
 */
export const COUNT_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == tonumber(ARGV[1]) or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}
`;

export interface MinuteBudgetOptions {
  /** Requests one id may make in a fixed one-minute window. */
  perMinute: number;
  /** The counters' key prefix: `<prefix>:<id>`. */
  prefix: string;
  /** Where the counts are shared by every process; without it each process counts its own requests only. */
  redis?: Redis;
  /** Redis did not answer (the request was let through). */
  onError(error: unknown): void;
}

/** Undefined: the request may go on; a number: the budget is spent, retry after that many seconds. */
export type MinuteVerdict = number | undefined;

export interface MinuteBudget {
  /** Spends one request of `id`'s minute. Synchronous while the count is far from the limit (no round trip). */
  spend(id: string): MinuteVerdict | Promise<MinuteVerdict>;
}

/**
 * A per-id budget of requests per fixed minute, shared by every process through Redis (fails open when Redis does not
 * answer). Far from the limit hits are granted in-process and reach Redis in batches every 50 ms (`LocalBudget`);
 * within 10% of it every hit is one atomic Redis round trip, so refusals are exact across processes.
 */
export function minuteBudget({ perMinute, prefix, redis, onError }: MinuteBudgetOptions): MinuteBudget {
  const count = redis ? redisCounter(redis) : memoryCounter();
  const local = new LocalBudget(perMinute, Math.max(10, Math.ceil(perMinute / 10)), WINDOW_MS, FLUSH_EVERY_MS, count, onError);
  return {
    spend(id) {
      const key = `${prefix}:${id}`;
      const now = Date.now();
      if (local.take(key, now)) return undefined;
      return count(key, 1, WINDOW_MS).then(
        ([total, ttlMs]): MinuteVerdict => {
          if (total > perMinute) return Math.max(1, Math.ceil(ttlMs / 1000));
          local.learn(key, total, ttlMs, now);
          return undefined;
        },
        (error: unknown) => {
          onError(error);
          return undefined;
        },
      );
    },
  };
}

function redisCounter(redis: Redis): FlushCommand {
  const commands = redis as unknown as { minuteBudgetCount?: FlushCommand };
  if (!commands.minuteBudgetCount) redis.defineCommand('minuteBudgetCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  return commands.minuteBudgetCount!.bind(redis);
}

/** The same fixed windows in this process's memory (expired windows are swept once a minute). */
function memoryCounter(): FlushCommand {
  const windows = new Map<string, { count: number; end: number }>();
  let nextSweep = 0;
  return (key, hits, windowMs) => {
    const now = Date.now();
    if (now >= nextSweep) {
      for (const [name, window] of windows) if (now >= window.end) windows.delete(name);
      nextSweep = now + WINDOW_MS;
    }
    let window = windows.get(key);
    if (!window || now >= window.end) windows.set(key, (window = { count: 0, end: now + windowMs }));
    window.count += hits;
    return Promise.resolve([window.count, window.end - now]);
  };
}
