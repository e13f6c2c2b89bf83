import { randomBytes } from 'node:crypto';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@platform/service-kit/config';
import { deleteKeysWithPrefix } from '@platform/service-kit/redis';
import { dropDatabase, ensureDatabase } from '@platform/service-kit/db';

/**
 * Each test run gets its own database and Redis prefix, so runs never collide; jest's global setup creates them
 * and passes them to the workers through the environment, global teardown removes them.
 */
export function baseDatabaseUrl(): string {
  return process.env.TEST_DATABASE_BASE_URL ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
}

export function redisUrl(): string {
  return process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
}

export function runSuffix(): string {
  return `${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function createRunDatabase(label: string): Promise<string> {
  const url = new URL(baseDatabaseUrl());
  url.pathname = `/test_${label}_${runSuffix()}`;
  await ensureDatabase(url.toString());
  return url.toString();
}

export async function dropRunDatabase(url: string | undefined): Promise<void> {
  if (url && new URL(url).pathname.startsWith('/test_')) await dropDatabase(url);
}

export function newRedisPrefix(label: string): string {
  return `test_${label}_${runSuffix()}`;
}

/** Removes every key under the run's prefix. */
export async function clearRedisPrefix(prefix: string | undefined): Promise<void> {
  if (!prefix || !prefix.startsWith('test_')) return;
  await deleteKeysWithPrefix(redisUrl(), prefix);
}
