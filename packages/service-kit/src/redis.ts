import Redis, { type RedisOptions } from 'ioredis';

export { Redis };
export type { RedisOptions };

/** A Redis client for commands; `maxRetriesPerRequest: null` as BullMQ requires for its connections. */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false, ...options });
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
