import type { Redis } from '@platform/service-kit/redis';
import type { DispatchJob, JobKind } from './dispatch.types';

/**
 * What a retry knows of its job besides kind and id (timers scheduled by older versions
 * have only kind and id): where and whom it searches, and until when (ms since the epoch, the search timeout), so a
 * retry with nobody in range reschedules itself without reading Postgres.
 */
export type SearchWindow = Pick<DispatchJob, 'partnerId' | 'fleetKind' | 'tier' | 'pickup'> & { until: number };

/** What a due retry knows: its job, and where and until when it searches (absent for a retry scheduled without it). */
export interface DueRetry {
  kind: JobKind;
  id: string;
  search?: SearchWindow;
}

/**
 * Due retries, each moved `leaseMs` ahead (so another worker does not take it while this one looks, and a worker killed
 * mid-look leaves it due again after the lease), with their windows. Answers a flat list: id, window JSON ('' when
 * none), id, window JSON, …
 */
const TAKE_DUE_SCRIPT = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  redis.call('ZADD', KEYS[1], ARGV[2], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
end
return out
`;

/** Retries whose score is still the lease they were taken with (nobody scheduled a next look): removed with their windows. */
const SETTLE_SCRIPT = `
local removed = 0
for i = 2, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) == tonumber(ARGV[1]) then
    redis.call('ZREM', KEYS[1], ARGV[i])
    redis.call('HDEL', KEYS[2], ARGV[i])
    removed = removed + 1
  end
end
return removed
`;

type TakeDue = (due: string, windows: string, now: number, leaseUntil: number, limit: number) => Promise<string[]>;
type Settle = (due: string, windows: string, leaseUntil: number, ...ids: string[]) => Promise<number>;

/**
 * The search retries of jobs waiting for a driver, in Redis under `${prefix}:dispatch:`: one sorted set (member: the job
 * id; score: when its next look is due, ms since the epoch) and one hash of each job's kind and search window. The
 * worker takes the due ones in batches (`startSearchRetrySweeper`). A retry was a BullMQ delayed job of its own: each
 * look cost Redis four Lua scripts (add, promote, move to active, move to finished) and about twenty commands, and the
 * worker a job's bookkeeping, for what is usually one GEOSEARCH that finds nobody; a waiting job looks again every few
 * seconds until its search times out, so these looks were most of Redis's and the worker's work under `pnpm load`
 * (docs/benchmarks.md). Here a look costs a share of one batched script and a ZADD. Scheduling the same job again
 * moves its one entry: there is never more than one retry per job.
 */
export class SearchRetries {
  private readonly dueKey: string;
  private readonly windowsKey: string;
  private readonly takeDueScript: TakeDue;
  private readonly settleScript: Settle;

  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.dueKey = `${prefix}:dispatch:search-retries`;
    this.windowsKey = `${prefix}:dispatch:search-windows`;
    const commands = redis as unknown as { dispatchTakeDueRetries?: TakeDue; dispatchSettleRetries?: Settle };
    if (!commands.dispatchTakeDueRetries) redis.defineCommand('dispatchTakeDueRetries', { numberOfKeys: 2, lua: TAKE_DUE_SCRIPT });
    if (!commands.dispatchSettleRetries) redis.defineCommand('dispatchSettleRetries', { numberOfKeys: 2, lua: SETTLE_SCRIPT });
    this.takeDueScript = commands.dispatchTakeDueRetries!.bind(redis);
    this.settleScript = commands.dispatchSettleRetries!.bind(redis);
  }

  /**
   * The job's next look in `delayMs`. With a window it is stored (replacing any); without one an existing window is
   * kept, so a retry scheduled by the locked search still knows where its job searches.
   */
  async schedule(kind: JobKind, id: string, delayMs: number, search?: SearchWindow): Promise<void> {
    const pipeline = this.redis.pipeline().zadd(this.dueKey, Date.now() + delayMs, id);
    const window = JSON.stringify(search ? { kind, search } : { kind });
    if (search) pipeline.hset(this.windowsKey, id, window);
    else pipeline.hsetnx(this.windowsKey, id, window);
    await pipeline.exec();
  }

  /** The job stopped searching: its retry and window go. */
  async remove(id: string): Promise<void> {
    await this.redis.pipeline().zrem(this.dueKey, id).hdel(this.windowsKey, id).exec();
  }

  /** Up to `limit` retries due by now, each held for `leaseMs`; `leaseUntil` is what `settle` needs. */
  async takeDue(limit: number, leaseMs: number): Promise<{ retries: DueRetry[]; leaseUntil: number }> {
    const now = Date.now();
    const leaseUntil = now + leaseMs;
    const flat = await this.takeDueScript(this.dueKey, this.windowsKey, now, leaseUntil, limit);
    const retries: DueRetry[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      const id = flat[i]!;
      const stored = flat[i + 1] ? (JSON.parse(flat[i + 1]!) as { kind: JobKind; search?: SearchWindow }) : undefined;
      // A retry without its hash entry (written by hand, or half of a pair lost) cannot say its kind: ids name it.
      const kind = stored?.kind ?? (id.startsWith('dlv_') ? 'delivery' : 'ride');
      retries.push({ kind, id, ...(stored?.search && { search: stored.search }) });
    }
    return { retries, leaseUntil };
  }

  /** After the looks of a batch: the retries nobody rescheduled (the job found a driver, stopped, or its window ended) go. */
  async settle(ids: string[], leaseUntil: number): Promise<void> {
    if (ids.length > 0) await this.settleScript(this.dueKey, this.windowsKey, leaseUntil, ...ids);
  }

  /** When the job's next look is due (ms since the epoch), or null when it has none. */
  async dueAt(id: string): Promise<number | null> {
    const score = await this.redis.zscore(this.dueKey, id);
    return score === null ? null : Number(score);
  }

  /** Brings a scheduled look forward to now (tests, and an operator who wants a search to look again); false when none is scheduled. */
  async bringForward(id: string): Promise<boolean> {
    return (await this.redis.zadd(this.dueKey, 'XX', 'CH', 0, id)) === 1 || (await this.dueAt(id)) === 0;
  }

  /** Retries scheduled, due or not. */
  count(): Promise<number> {
    return this.redis.zcard(this.dueKey);
  }
}
