import { createServer } from 'node:http';
import pino from 'pino';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import type { Logger } from '@platform/service-kit/logger';
import { clearRedisPrefix, listen, newRedisPrefix, redisUrl, type RunningServer } from '@platform/test-kit';
import { createGateway, type GatewayDeps } from '../src/app';

export interface GatewayOptions {
  timeoutMs?: number;
  /** Rate limiter store; each test file gets its own prefix. Without it the gateway does not rate limit. */
  redis?: { client: Redis; prefix: string };
  perMinute?: number;
  logger?: Logger;
  /** Further gateway settings (body limits, per-client caps, upstream sockets, trusted proxy hops). */
  config?: Partial<GatewayDeps['config']>;
}

/** A running gateway: `url` is its public port, `internalUrl` its metrics/readiness port. */
export type RunningGateway = RunningServer & { internalUrl: string };

export async function startGateway(upstreams: { certificate: string; mobility: string }, timeoutOrOptions: number | GatewayOptions = 30000): Promise<RunningGateway> {
  const options: GatewayOptions = typeof timeoutOrOptions === 'number' ? { timeoutMs: timeoutOrOptions } : timeoutOrOptions;
  const gateway = createGateway({
    config: {
      CERTIFICATE_URL: upstreams.certificate,
      MOBILITY_URL: upstreams.mobility,
      UPSTREAM_TIMEOUT_MS: options.timeoutMs ?? 30000,
      REDIS_PREFIX: options.redis?.prefix,
      RATE_LIMIT_PER_MINUTE: options.perMinute,
      ...options.config,
    },
    logger: options.logger ?? pino({ level: 'silent' }),
    redis: options.redis?.client,
  });
  const [publicServer, internalServer] = await Promise.all([listen(createServer(gateway.public)), listen(createServer(gateway.internal))]);
  return {
    ...publicServer,
    internalUrl: internalServer.url,
    close: async () => {
      await Promise.all([publicServer.close(), internalServer.close()]);
      gateway.close();
    },
  };
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
