import { listenToChannel, type ChannelListener } from '@platform/service-kit/pg-listener';
import type { Logger } from '@platform/service-kit/logger';
import type { ApiKeyPrincipal } from './api-key-principal';

export interface CachedKey {
  principal: ApiKeyPrincipal;
  lastUsedAt: Date | null;
  /** Epoch milliseconds after which the entry must be read again (TTL, the key's expiry, the end of a rotation's grace). */
  validUntil: number;
}

export interface ApiKeyCacheOptions {
  /** Longest time an entry is trusted without a notification (a safety net; invalidation is by notification). */
  ttlMs: number;
  maxEntries: number;
}

const DEFAULT_OPTIONS: ApiKeyCacheOptions = { ttlMs: 60_000, maxEntries: 10_000 };
/** How long a change waits for every listening process to acknowledge it before answering anyway. */
const ACK_TIMEOUT_MS = 2000;

/** Finds the backends of every process whose cache listens (this one's included), after a change committed. */
export type ListeningPeers = () => Promise<number[]>;

interface AckWaiter {
  /** Backend pids that acknowledged the key's change since the waiter was registered. */
  acked: Set<number>;
  /** Re-checks whether every expected pid has acknowledged. */
  check(): void;
  /** Stops waiting (this process can no longer hear acknowledgements). */
  release(): void;
}

/**
 * Per-process cache of authenticated keys by token hash. It is trusted only while its LISTEN connection is up: every
 * change to a key (rotate, revoke, delete, expiry, scopes) notifies its id and every process drops the key's entries,
 * then acknowledges on a second channel; while the connection is down nothing is cached or served from the cache. An
 * entry read while a notification arrived is not stored (it may predate the change). A process that changes a key
 * answers only once every listening process has acknowledged (bounded), so the very next request anywhere is refused.
 */
export class ApiKeyAuthCache {
  private readonly entries = new Map<string, CachedKey>();
  private readonly options: ApiKeyCacheOptions;
  private readonly ackWaiters = new Map<string, Set<AckWaiter>>();
  private listeningPeers: ListeningPeers | undefined;
  private listening = false;
  /** Bumped by every notification and connection change; a lookup that saw it move does not store its answer. */
  private generation = 0;

  constructor(options: Partial<ApiKeyCacheOptions> = {}) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  get isLive(): boolean {
    return this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  /** How a change finds the processes it must hear back from (set by `listenForApiKeyChanges`). */
  useListeningPeers(peers: ListeningPeers): void {
    this.listeningPeers = peers;
  }

  /** The generation to hand back to `store` once a database lookup is done. */
  beginLookup(): number {
    return this.generation;
  }

  get(tokenHash: string, now = Date.now()): CachedKey | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.validUntil <= now) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  store(tokenHash: string, entry: Omit<CachedKey, 'validUntil'>, limits: Array<Date | null>, lookupGeneration: number): void {
    if (!this.listening || lookupGeneration !== this.generation) return;
    const now = Date.now();
    // A limit already past is a grace period that ended: it no longer bounds the current token.
    const future = limits.filter((d): d is Date => d !== null && d.getTime() > now).map((d) => d.getTime());
    const validUntil = Math.min(now + this.options.ttlMs, ...future);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(tokenHash, { ...entry, validUntil });
  }

  /** Notes a `last_used_at` write so the entry does not ask for another within the minute. */
  noteUse(tokenHash: string, at: Date): void {
    const entry = this.entries.get(tokenHash);
    if (entry) entry.lastUsedAt = at;
  }

  /** Drops every entry of one key (a key has at most two token hashes: current and previous): on a change made here, and on each notification. */
  dropKey(keyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (entry.principal.keyId === keyId) this.entries.delete(hash);
  }

  /** The process behind backend `pid` acknowledged that it dropped this key. */
  noteAcknowledgement(keyId: string, pid: number): void {
    const waiters = this.ackWaiters.get(keyId);
    if (!waiters) return;
    for (const waiter of waiters) {
      waiter.acked.add(pid);
      waiter.check();
    }
  }

  /**
   * Call before changing a key: `wait()` after the change committed resolves once every process listening at that
   * moment (this one too) has acknowledged dropping the key, or after ACK_TIMEOUT_MS when one never does (it died or
   * lost its connection, which empties its cache anyway). `cancel()` when the change did not happen.
   */
  expectAcknowledgements(keyId: string): { wait(): Promise<void>; cancel(): void } {
    if (!this.listening) return { wait: () => Promise.resolve(), cancel: () => undefined };
    let expected: number[] | undefined;
    const { promise: allAcked, resolve: done } = Promise.withResolvers<void>();
    const waiter: AckWaiter = {
      acked: new Set(),
      check: () => {
        if (expected && expected.every((pid) => waiter.acked.has(pid))) done();
      },
      release: () => done(),
    };
    const waiters = this.ackWaiters.get(keyId) ?? new Set<AckWaiter>();
    waiters.add(waiter);
    this.ackWaiters.set(keyId, waiters);
    const forget = () => {
      waiters.delete(waiter);
      if (waiters.size === 0 && this.ackWaiters.get(keyId) === waiters) this.ackWaiters.delete(keyId);
    };
    return {
      wait: async () => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)));
        (this.listeningPeers?.() ?? Promise.resolve([])).then(
          (pids) => {
            expected = pids;
            waiter.check();
          },
          () => done(), // the LISTEN connection is down: this cache is empty and can hear no acknowledgement
        );
        await Promise.race([allAcked, timeout]);
        clearTimeout(timer);
        forget();
      },
      cancel: () => {
        forget();
        done();
      },
    };
  }

  setListening(listening: boolean): void {
    this.generation++;
    this.entries.clear();
    this.listening = listening;
    if (!listening) {
      // Acknowledgements can no longer arrive; this cache is empty, so its own changes need not wait for them.
      for (const waiters of this.ackWaiters.values()) for (const waiter of waiters) waiter.release();
    }
  }
}

/** The channel a service's `api_keys` trigger notifies (see the services' migrations). */
export function apiKeyChangesChannel(schema: string): string {
  return `${schema}_api_keys_changed`;
}

/** The channel each listening process acknowledges a change on: `<key id>:<its backend pid>`. */
export function apiKeyAcksChannel(schema: string): string {
  return `${schema}_api_keys_acked`;
}

/** The `application_name` of every cache's LISTEN connection, by which a change finds the processes to hear back from. */
export function apiKeyCacheApplicationName(schema: string): string {
  return `${schema}_api_key_cache`;
}

/**
 * Connects a cache to its service's key-change notifications: drops a notified key, acknowledges it, and collects the
 * acknowledgements its own changes wait for. Every process of a service must connect as the same database role, so
 * each can see the others' listening connections in `pg_stat_activity`.
 */
export function listenForApiKeyChanges(databaseUrl: string, schema: string, cache: ApiKeyAuthCache, logger: Logger): ChannelListener {
  const changes = apiKeyChangesChannel(schema);
  const acks = apiKeyAcksChannel(schema);
  const applicationName = apiKeyCacheApplicationName(schema);
  const listener = listenToChannel(
    databaseUrl,
    [changes, acks],
    {
      onNotify: (payload, channel) => {
        if (channel === changes) {
          cache.dropKey(payload);
          listener.query("select pg_notify($1, $2 || ':' || pg_backend_pid())", [acks, payload]).catch((err: unknown) => {
            logger.warn({ err }, 'could not acknowledge an API-key change');
          });
          return;
        }
        const separator = payload.lastIndexOf(':');
        const pid = Number(payload.slice(separator + 1));
        if (separator > 0 && Number.isInteger(pid)) cache.noteAcknowledgement(payload.slice(0, separator), pid);
      },
      onListening: () => cache.setListening(true),
      onLost: () => cache.setListening(false),
    },
    logger,
    { applicationName },
  );
  cache.useListeningPeers(async () => {
    const { rows } = await listener.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and application_name = $1',
      [applicationName],
    );
    return rows.map((row) => row.pid);
  });
  return listener;
}

/** A listening cache for an API process, or none when `API_KEY_CACHE_TTL_S` is 0. */
export function startApiKeyCache(
  config: { API_KEY_CACHE_TTL_S: number; databaseUrl: string },
  schema: string,
  logger: Logger,
): { cache: ApiKeyAuthCache; listener: ChannelListener } | undefined {
  if (config.API_KEY_CACHE_TTL_S === 0) return undefined;
  const cache = new ApiKeyAuthCache({ ttlMs: config.API_KEY_CACHE_TTL_S * 1000 });
  return { cache, listener: listenForApiKeyChanges(config.databaseUrl, schema, cache, logger) };
}
