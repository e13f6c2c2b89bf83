import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createRedis, type Redis, type RedisOptions } from '@platform/service-kit/redis';
import type { GatewayConfig } from './config';

/** HTTPS when `TLS_CERT_FILE` and `TLS_KEY_FILE` are set (the app then sends HSTS), plain HTTP otherwise. */
export function createGatewayServer(
  app: RequestListener,
  config: Pick<GatewayConfig, 'TLS_CERT_FILE' | 'TLS_KEY_FILE'> & Partial<Pick<GatewayConfig, 'BODY_TIMEOUT_MS'>>,
): HttpServer | HttpsServer {
  const server =
    config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? createHttpsServer({ cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) }, app)
      : createHttpServer(app);
  server.keepAliveTimeout = 65000; // longer than the usual load balancer's idle timeout (60 s)
  // A client must send its headers, and its whole request, soon: the app answers a late body 408 JSON at
  // BODY_TIMEOUT_MS; node's own limits close whatever slips past that (headers that never end, say).
  const bodyTimeoutMs = config.BODY_TIMEOUT_MS ?? 10000;
  server.headersTimeout = bodyTimeoutMs;
  server.requestTimeout = bodyTimeoutMs + 5000;
  return server;
}

/**
 * The rate limiter's Redis client: commands fail at once while it is disconnected and time out quickly, so a Redis
 * outage costs a request at most a few milliseconds before it is let through, never a hang.
 */
export function createRateLimitRedis(url: string, options: RedisOptions = {}): Redis {
  return createRedis(url, { enableAutoPipelining: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 250, connectTimeout: 2000, ...options });
}
