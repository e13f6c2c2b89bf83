import { DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { deleteKeysWithPrefix } from '@platform/service-kit/redis';

/** Deletes every key under a prefix (the simulator's and benchmarks' own prefixes only). */
export function clearPrefix(prefix: string): Promise<void> {
  return deleteKeysWithPrefix(process.env.REDIS_URL ?? DEFAULT_REDIS_URL, prefix);
}
