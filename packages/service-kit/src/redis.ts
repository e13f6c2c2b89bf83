import Redis, { type RedisOptions } from 'ioredis';

export { Redis };
export type { RedisOptions };

/** A Redis client for commands; `maxRetriesPerRequest: null` as BullMQ requires for its connections. */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, ...options });
}

/**
 * A second connection to the same server that closes when `redis` does (its `end` event), for a client that defines
 * many scripts on the connection it is given. BullMQ defines its ~40 Lua scripts on its connection, and ioredis copies
 * every script a connection has onto each pipeline it makes (`Pipeline`'s constructor): on a connection shared with
 * BullMQ, every `redis.pipeline()` of a request's hot path paid for that copy (most of ioredis's CPU in a profile of
 * the mobility service under `pnpm load`, docs/benchmarks.md).
 */
export function companionConnection(redis: Redis): Redis {
  const companion = redis.duplicate();
  redis.once('end', () => companion.disconnect());
  return companion;
}

/** Pings once with a short timeout, for start-up checks that must fail fast. */
export async function pingRedis(url: string, timeoutMs = 3000): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null });
  let lastError: unknown;
  client.on('error', (error) => (lastError = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw lastError ?? error; // the socket error (ECONNREFUSED) says more than "Connection is closed."
  } finally {
    client.disconnect();
  }
}

/** Deletes every key that starts with `prefix` (SCAN, not KEYS, so Redis keeps serving meanwhile). */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined); // a dead Redis fails the commands below; the event needs no second report
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
