import { listenToChannel, type ChannelListener, type Logger } from '@platform/service-kit';
import type { ApiKeyPrincipal } from './api-keys.service';

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
/** How long a change waits for its own notification to come back before answering. */
const ECHO_TIMEOUT_MS = 2000;

/**
 * Per-process cache of authenticated keys by token hash. It is trusted only while its LISTEN connection is up: every
 * change to a key (rotate, revoke, delete, expiry, scopes) notifies its id and every process drops the key's entries;
 * while the connection is down nothing is cached or served from the cache. An entry read while a notification
 * arrived is not stored (it may predate the change).
 */
export class ApiKeyAuthCache {
  private readonly entries = new Map<string, CachedKey>();
  private readonly options: ApiKeyCacheOptions;
  private readonly echoWaiters = new Map<string, Set<() => void>>();
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

  /** Drops every entry of one key (a key has at most two token hashes: current and previous). */
  dropKey(keyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (entry.principal.keyId === keyId) this.entries.delete(hash);
  }

  /** A notification named this key: drop it and wake whoever waits to hear it. */
  invalidateKey(keyId: string): void {
    this.dropKey(keyId);
    const waiters = this.echoWaiters.get(keyId);
    if (waiters) {
      this.echoWaiters.delete(keyId);
      for (const wake of waiters) wake();
    }
  }

  /**
   * Call before changing a key: `wait()` after the change committed resolves once this process has heard the change's
   * notification (bounded), so the other processes, who hear it from the same commit, have dropped the key too by the
   * time the caller gets its answer. `cancel()` when the change did not happen.
   */
  expectNotification(keyId: string): { wait(): Promise<void>; cancel(): void } {
    if (!this.listening) return { wait: () => Promise.resolve(), cancel: () => undefined };
    let wake!: () => void;
    const heard = new Promise<void>((resolve) => (wake = resolve));
    const waiters = this.echoWaiters.get(keyId) ?? new Set<() => void>();
    waiters.add(wake);
    this.echoWaiters.set(keyId, waiters);
    const forget = () => {
      waiters.delete(wake);
      if (waiters.size === 0 && this.echoWaiters.get(keyId) === waiters) this.echoWaiters.delete(keyId);
    };
    return {
      wait: async () => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([heard, new Promise<void>((resolve) => (timer = setTimeout(resolve, ECHO_TIMEOUT_MS)))]);
        clearTimeout(timer);
        forget();
      },
      cancel: () => {
        forget();
        wake();
      },
    };
  }

  setListening(listening: boolean): void {
    this.generation++;
    this.entries.clear();
    this.listening = listening;
    if (!listening) {
      for (const waiters of this.echoWaiters.values()) for (const wake of waiters) wake();
      this.echoWaiters.clear();
    }
  }
}

/** The channel a service's `api_keys` trigger notifies (see the services' migrations). */
export function apiKeyChangesChannel(schema: string): string {
  return `${schema}_api_keys_changed`;
}

/** Connects a cache to its service's key-change notifications. */
export function listenForApiKeyChanges(databaseUrl: string, schema: string, cache: ApiKeyAuthCache, logger: Logger): ChannelListener {
  return listenToChannel(
    databaseUrl,
    apiKeyChangesChannel(schema),
    {
      onNotify: (keyId) => cache.invalidateKey(keyId),
      onListening: () => cache.setListening(true),
      onLost: () => cache.setListening(false),
    },
    logger,
  );
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
