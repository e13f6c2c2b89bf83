import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import type { DashboardClaims } from './dashboard-auth';
import { roundRobin } from './upstream-list';

/** What the certificate service says of a dashboard token's sign-in. */
export type SessionVerdict = 'live' | 'ended' | 'unavailable';

export interface DashboardSessionOptions {
  /** The certificate service's replicas: each check goes to the next in turn. */
  certificateUrls: string[];
  /** How long a live answer is trusted (0: every request asks); only while the Redis subscription is up. */
  cacheMs: number;
  timeoutMs: number;
  /** The gateway's Redis (rate limits): a duplicate connection subscribes to ended sessions, this one acknowledges. */
  redis?: Redis;
  prefix: string;
  logger: Logger;
}

/** The certificate service publishes here when a sign-in or a membership ends (see its session-events.ts). */
const endedChannel = (prefix: string) => `${prefix}:dashboard-sessions:ended`;
const ackChannel = (prefix: string) => `${prefix}:dashboard-sessions:acked`;
const CHECK_PATH = '/internal/v1/dashboard-sessions/check';
const MAX_ENTRIES = 10_000;

type Ended = { id: string; kind: 'session'; sid: string } | { id: string; kind: 'member'; sub: string; org: string };

interface Entry {
  sid: string;
  sub: string;
  org: string;
  validUntil: number;
}

/**
 * The session check of dashboard admin requests: every token names its sign-in (`sid`) and is proxied only while the
 * certificate service says that sign-in is live and the membership unchanged, so signing out or removing a member
 * takes effect at once rather than when the 15-minute token expires. Live answers are cached for `cacheMs`, trusted
 * only while this process's Redis subscription is up: the certificate service publishes each ended sign-in or
 * membership, every gateway process drops its entries and acknowledges, and the change answers once all have (the
 * same scheme as the services' API-key caches, over Redis instead of Postgres). While the subscription is down,
 * nothing is cached and every request asks.
 */
export class DashboardSessions {
  private readonly entries = new Map<string, Entry>();
  private readonly next: () => number;
  private readonly subscriber: Redis | undefined;
  private listening = false;
  /** Bumped by every notification and subscription change; a check that saw it move does not store its answer. */
  private generation = 0;

  constructor(private readonly options: DashboardSessionOptions) {
    this.next = roundRobin(options.certificateUrls.length);
    const { redis } = options;
    if (!redis || options.cacheMs === 0) return;
    const subscriber = redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', () => undefined); // the rate limiter reports Redis being down
    subscriber.on('ready', () => {
      subscriber.subscribe(endedChannel(options.prefix)).then(
        () => this.setListening(true),
        () => this.setListening(false),
      );
    });
    subscriber.on('close', () => this.setListening(false));
    subscriber.on('message', (_channel: string, message: string) => this.onEnded(message));
  }

  async check(claims: DashboardClaims, authorization: string): Promise<SessionVerdict> {
    const key = `${claims.sid}|${claims.sub}|${claims.org}|${claims.role}`;
    const now = Date.now();
    const cached = this.listening ? this.entries.get(key) : undefined;
    if (cached && cached.validUntil > now) return 'live';
    if (cached) this.entries.delete(key);
    const generation = this.generation;
    const verdict = await this.ask(authorization);
    if (verdict === 'live' && this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { sid: claims.sid, sub: claims.sub, org: claims.org, validUntil: now + this.options.cacheMs });
    }
    return verdict;
  }

  close(): void {
    this.subscriber?.disconnect();
  }

  private async ask(authorization: string): Promise<SessionVerdict> {
    const base = this.options.certificateUrls[this.next() % this.options.certificateUrls.length]!;
    try {
      const res = await fetch(new URL(CHECK_PATH, base), { headers: { authorization }, signal: AbortSignal.timeout(this.options.timeoutMs) });
      await res.arrayBuffer();
      if (res.status === 204) return 'live';
      if (res.status === 401) return 'ended';
      this.options.logger.warn({ status: res.status }, 'dashboard session check answered unexpectedly');
    } catch (error) {
      this.options.logger.warn({ err: (error as Error).message }, 'dashboard session check failed');
    }
    return 'unavailable';
  }

  private onEnded(message: string): void {
    let ended: Ended;
    try {
      ended = JSON.parse(message) as Ended;
    } catch {
      return;
    }
    this.generation++;
    for (const [key, entry] of this.entries) {
      if (ended.kind === 'session' ? entry.sid === ended.sid : entry.sub === ended.sub && entry.org === ended.org) this.entries.delete(key);
    }
    if (typeof ended.id === 'string') this.options.redis?.publish(ackChannel(this.options.prefix), ended.id).catch(() => undefined);
  }

  private setListening(listening: boolean): void {
    this.generation++;
    this.entries.clear();
    this.listening = listening;
  }
}
