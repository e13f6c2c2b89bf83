import { createServer } from 'node:http';
import pino from 'pino';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import type { Logger } from '@platform/service-kit/logger';
import { clearRedisPrefix, listen, newRedisPrefix, redisUrl, type RunningServer } from '@platform/test-kit';
import { createApp } from '../src/app';

export interface GatewayOptions {
  timeoutMs?: number;
  /** Rate limiter store; each test file gets its own prefix. Without it the gateway does not rate limit. */
  redis?: { client: Redis; prefix: string };
  perMinute?: number;
  logger?: Logger;
}

export async function startGateway(upstreams: { certificate: string; mobility: string }, timeoutOrOptions: number | GatewayOptions = 30000): Promise<RunningServer> {
  const options = typeof timeoutOrOptions === 'number' ? { timeoutMs: timeoutOrOptions } : timeoutOrOptions;
  const app = createApp({
    config: {
      CERTIFICATE_URL: upstreams.certificate,
      MOBILITY_URL: upstreams.mobility,
      UPSTREAM_TIMEOUT_MS: options.timeoutMs ?? 30000,
      REDIS_PREFIX: options.redis?.prefix,
      RATE_LIMIT_PER_MINUTE: options.perMinute,
    },
    logger: options.logger ?? pino({ level: 'silent' }),
    redis: options.redis?.client,
  });
  return listen(createServer(app));
}

/** A Redis client and a fresh prefix for one test file; `close` removes its keys. */
export function testRedis(label: string): { client: Redis; prefix: string; close(): Promise<void> } {
  const client = createRedis(redisUrl());
  const prefix = newRedisPrefix(label);
  return {
    client,
    prefix,
    close: async () => {
      await clearRedisPrefix(prefix);
      client.disconnect();
    },
  };
}

/** A pino destination that keeps every line, for tests that read the logs. */
export function captureLines(): { stream: { write(line: string): void }; lines: () => Array<Record<string, unknown>>; text: () => string } {
  const chunks: string[] = [];
  return {
    stream: { write: (line: string) => void chunks.push(line) },
    lines: () => chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => chunks.join(''),
  };
}
