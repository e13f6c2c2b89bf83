import { randomBytes } from 'node:crypto';
import { createRedis } from '@platform/service-kit/redis';
import type { Logger } from '@platform/service-kit/logger';

/**
 * A dashboard sign-in (or one member's access to one organization) that ended: every gateway drops what it cached of
 * it, so an access token still within its 15 minutes is refused at once. Published on Redis; each listening gateway
 * process acknowledges; the change answers once every process that received it has (bounded by ACK_TIMEOUT_MS).
 */
export type SessionEnd = { kind: 'session'; sid: string } | { kind: 'member'; sub: string; org: string };

export interface SessionEvents {
  ended(event: SessionEnd): Promise<void>;
  close(): Promise<void>;
}

/** How long a change waits for every gateway to acknowledge before answering anyway. */
const ACK_TIMEOUT_MS = 2000;

/** The channels the gateway's session cache listens and acknowledges on (see gateway/src/dashboard-sessions.ts). */
export function sessionEndedChannel(prefix: string): string {
  return `${prefix}:dashboard-sessions:ended`;
}
export function sessionAckChannel(prefix: string): string {
  return `${prefix}:dashboard-sessions:acked`;
}

/** No Redis configured: gateways find out at their next session check (their cache lives seconds). */
export const NO_SESSION_EVENTS: SessionEvents = { ended: async () => undefined, close: async () => undefined };

export function createRedisSessionEvents(redisUrl: string, prefix: string, logger: Logger): SessionEvents {
  const publisher = createRedis(redisUrl, { enableOfflineQueue: false });
  const subscriber = createRedis(redisUrl);
  for (const client of [publisher, subscriber]) client.on('error', () => undefined); // reported by the failed publish
  const waiters = new Map<string, () => void>();
  void subscriber.subscribe(sessionAckChannel(prefix)).catch(() => undefined);
  subscriber.on('message', (_channel: string, id: string) => waiters.get(id)?.());
  return {
    async ended(event) {
      const id = randomBytes(12).toString('base64url');
      let acked = 0;
      let expected = Number.POSITIVE_INFINITY;
      let done!: () => void;
      const allAcked = new Promise<void>((resolve) => (done = resolve));
      waiters.set(id, () => {
        if (++acked >= expected) done();
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ACK_TIMEOUT_MS)));
      try {
        const published = publisher.publish(sessionEndedChannel(prefix), JSON.stringify({ id, ...event })).then((receivers) => {
          expected = receivers;
          if (acked >= expected) done();
        });
        await Promise.race([published.then(() => allAcked), timeout]);
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'could not tell the gateways that a dashboard session ended');
      } finally {
        clearTimeout(timer);
        waiters.delete(id);
      }
    },
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
