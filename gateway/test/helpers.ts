import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import pino from 'pino';
import { signAdminToken, type AdminClaims, type SignOptions } from '@platform/service-kit/admin-auth';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import type { Logger } from '@platform/service-kit/logger';
import { clearRedisPrefix, listen, newRedisPrefix, redisUrl, sendJson, type FakeReply, type RecordedRequest, type RunningServer } from '@platform/test-kit';
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

/** Where the gateway asks the certificate service whether a dashboard token's sign-in is live. */
export const SESSION_CHECK = '/internal/v1/dashboard-sessions/check';
/** The sign-in the tests' dashboard tokens name unless they say otherwise; fake certificate services call it live. */
export const LIVE_SID = 'rsf_gateway_test_live';

/**
 * A dashboard access token as the certificate service issues one: it names its sign-in (`sid`, LIVE_SID unless the
 * claims give another). The gateway refuses a token without one (401 `session_required`).
 */
export function dashboardToken(claims: AdminClaims, secret: string, options: SignOptions = {}): string {
  return signAdminToken({ ...claims, sid: claims.sid ?? LIVE_SID }, secret, options);
}

/** The `sid` a Bearer token names (not verified: the gateway has verified it before asking). */
function sidOf(authorization: string | undefined): string | undefined {
  const payload = authorization?.replace(/^Bearer /, '').split('.')[1];
  if (!payload) return undefined;
  try {
    const sid = (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sid?: unknown }).sid;
    return typeof sid === 'string' ? sid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The certificate service's session check as a fake answers it: 204 while the token's `sid` is one of `live`, else 401
 * `session_ended`. True when `req` was that check (answered), false for any other request.
 */
export function answerSessionCheck(req: { url?: string; headers: IncomingHttpHeaders }, res: ServerResponse, live: ReadonlySet<string> = new Set([LIVE_SID])): boolean {
  if (req.url !== SESSION_CHECK) return false;
  const sid = sidOf(req.headers.authorization);
  if (sid !== undefined && live.has(sid)) res.writeHead(204).end();
  else sendJson(res, 401, { error: 'This sign-in has ended; sign in again', code: 'session_ended' });
  return true;
}

/** A fake certificate service's reply that answers the session check (see `answerSessionCheck`) and hands anything else to `reply`. */
export function withSessionCheck(reply: FakeReply, live?: ReadonlySet<string>): FakeReply {
  return (request, res) => (answerSessionCheck(request, res, live) ? undefined : reply(request, res));
}

/** The requests a fake received other than session checks: what the gateway proxied. */
export function proxiedRequests(fake: { requests: RecordedRequest[] }): RecordedRequest[] {
  return fake.requests.filter((request) => request.url !== SESSION_CHECK);
}
