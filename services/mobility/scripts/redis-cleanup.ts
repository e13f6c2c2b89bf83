import { createRedis, DEFAULT_REDIS_URL } from '@platform/service-kit';

/** Deletes every key under a prefix (the simulator's and benchmarks' own prefixes only). */
export async function clearPrefix(prefix: string): Promise<void> {
  const redis = createRedis(process.env.REDIS_URL ?? DEFAULT_REDIS_URL);
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
