import { ApiError, ConflictError, NotFoundError, ValidationError } from '@platform/service-kit/errors';
import { isIdOf, newId } from '@platform/service-kit/ids';
import { pageOf, type Page } from '@platform/service-kit/pagination';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import { generateWebhookSecret } from '@platform/webhook-signature';
import { ALWAYS_DELIVERED_EVENT_TYPES, type AppendEndpointEvent, assertSafeTarget, DEFAULT_RETRY_SCHEDULE_MS, type EndpointSecretCipher, enqueueWebhookMessages, nextEndpointEventSequence, type TargetPolicy, UnsafeTargetError, WEBHOOK_URL_REFUSED, type WebhookQueue } from '../webhook-dispatch';
import type { EndpointChanges, PageRequest, WebhookEndpointRow, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { presentEndpoint, presentWebhookMessage } from './webhook-endpoints.presenter';
import { WEBHOOK_EVENT_TYPES, type SubscribableEventType } from './webhook-events';
import type { WebhookMessageFilter, WebhookMessageLogRepository } from './webhook-message-log.repository';
import type { PartnerAccount } from '../api-keys';

export interface WebhookEndpointServiceDeps {
  db: Knex;
  endpoints: WebhookEndpointsRepository;
  messageLog: WebhookMessageLogRepository;
  queue: WebhookQueue;
  policy: TargetPolicy;
  /** Encrypts the signing secret before it is stored. */
  secrets: EndpointSecretCipher;
  /** WEBHOOK_MAX_ENDPOINTS_PER_PARTNER. */
  maxEndpointsPerPartner: number;
  /** The outbox's append, for test events (unset: test events are refused). */
  appendEvent?: AppendEndpointEvent;
  /** HTTP attempts a test event gets (WEBHOOK_MAX_ATTEMPTS, else the retry schedule's). */
  maxAttempts?: number;
  /** WEBHOOK_RECOVER_MIN_INTERVAL_S: at most one recover per partner and mode per this many seconds (default 60). */
  recoverMinIntervalSeconds?: number;
  logger?: Logger;
}

export interface UpdateEndpointInput {
  url?: string;
  events?: SubscribableEventType[];
  description?: string | null;
  enabled?: boolean;
}

/** After a rotation the previous secret keeps signing (a second `v1,` signature) this long. */
export const SECRET_OVERLAP_HOURS = 24;

export interface RecoverInput {
  since: Date;
  include_succeeded?: boolean;
}

export const DISABLED_BY_PARTNER_REASON = 'Disabled by the partner';

export interface RegisterEndpointInput {
  url: string;
  events?: SubscribableEventType[];
  description?: string | null;
}

async function requireEndpoint(endpoints: WebhookEndpointsRepository, account: PartnerAccount, id: string): Promise<WebhookEndpointRow> {
  const endpoint = isIdOf('whe', id) ? await endpoints.findEndpoint(account, id) : undefined;
  if (!endpoint) throw new NotFoundError('Webhook endpoint not found');
  return endpoint;
}

/** A partner's endpoints themselves: registered (within the per-partner cap, one enabled endpoint per URL), listed, changed, their secret rotated, deleted. */
function endpointRegistry({ db, endpoints, policy, secrets, maxEndpointsPerPartner, logger }: WebhookEndpointServiceDeps) {
  async function checkedUrl(partnerId: string, candidate: string): Promise<URL> {
    try {
      return await assertSafeTarget(candidate, policy);
    } catch (error) {
      if (error instanceof UnsafeTargetError) {
        // One answer for every refusal; which rule refused it, and any forbidden address, go to our log.
        logger?.warn({ partnerId, url: candidate, reason: error.reason, kind: error.kind, ...(error.forbiddenAddress ? { forbiddenAddress: error.forbiddenAddress } : {}) }, 'webhook URL refused');
        throw new ValidationError([{ path: 'url', message: WEBHOOK_URL_REFUSED }]);
      }
      throw error;
    }
  }

  return {
    async register(account: PartnerAccount, input: RegisterEndpointInput) {
      const { partnerId } = account;
      const url = await checkedUrl(partnerId, input.url);
      const id = newId('whe');
      const secret = generateWebhookSecret();
      const row = await db.transaction(async (trx) => {
        await endpoints.lockPartnerEndpoints(trx, partnerId);
        const existing = await endpoints.endpointUrlsOf(trx, account);
        // Disabled endpoints count too: delete one to free its place. The same URL may be registered again only
        // while its old endpoint is disabled (that is how a partner resumes after a 410).
        if (existing.some((e) => e.status === 'enabled' && sameUrl(e.url, url))) {
          throw new ConflictError('An enabled webhook endpoint with this URL is already registered', 'duplicate_webhook_url');
        }
        if (existing.length >= maxEndpointsPerPartner) {
          throw new ConflictError(`At most ${maxEndpointsPerPartner} webhook endpoints per partner; delete one to register another`, 'webhook_endpoint_limit_reached');
        }
        return endpoints.insertEndpoint(trx, {
          id,
          partner_id: partnerId,
          livemode: account.livemode,
          url: input.url,
          events: input.events ? [...new Set(input.events)] : [...WEBHOOK_EVENT_TYPES],
          description: input.description ?? null,
          secret: secrets.encrypt(id, secret),
        });
      });
      return { ...presentEndpoint(row), secret };
    },

    async list(account: PartnerAccount, page: PageRequest): Promise<Page<ReturnType<typeof presentEndpoint>>> {
      const rows = await endpoints.listEndpoints(account, page);
      return pageOf(rows, page.limit, presentEndpoint);
    },

    /** One endpoint (never its secret); another partner's or mode's: 404. */
    async get(account: PartnerAccount, id: string) {
      return presentEndpoint(await requireEndpoint(endpoints, account, id));
    },

    /**
     * Changes url, events, description or enabled. `enabled: true` re-enables a disabled endpoint (its failure clock
     * restarts); `enabled: false` disables it. The duplicate-URL rule holds for the endpoint as it will be.
     */
    async update(account: PartnerAccount, id: string, input: UpdateEndpointInput) {
      const { partnerId } = account;
      await requireEndpoint(endpoints, account, id);
      const url = input.url === undefined ? undefined : await checkedUrl(partnerId, input.url);
      const row = await db.transaction(async (trx) => {
        await endpoints.lockPartnerEndpoints(trx, partnerId);
        const current = await endpoints.lockEndpoint(trx, account, id);
        if (!current) throw new NotFoundError('Webhook endpoint not found');
        const changes: EndpointChanges = {};
        if (input.url !== undefined) changes.url = input.url;
        if (input.events !== undefined) changes.events = [...new Set(input.events)];
        if (input.description !== undefined) changes.description = input.description;
        if (input.enabled === true && current.status !== 'enabled') Object.assign(changes, { status: 'enabled', disabled_reason: null, failing_since: null });
        if (input.enabled === false && current.status !== 'disabled') Object.assign(changes, { status: 'disabled', disabled_reason: DISABLED_BY_PARTNER_REASON });
        const willBeEnabled = (changes.status ?? current.status) === 'enabled';
        const target = url ?? new URL(current.url);
        const others = (await endpoints.listOtherEndpointUrls(trx, account, id)).filter((e) => e.status === 'enabled');
        if (willBeEnabled && others.some((e) => sameUrl(e.url, target))) {
          throw new ConflictError('An enabled webhook endpoint with this URL is already registered', 'duplicate_webhook_url');
        }
        return endpoints.updateEndpoint(trx, id, changes);
      });
      return presentEndpoint(row);
    },

    /** A new secret, shown once; the previous one keeps signing for SECRET_OVERLAP_HOURS, or stops at once with `expirePreviousNow`. */
    async rotateSecret(account: PartnerAccount, id: string, { expirePreviousNow = false }: { expirePreviousNow?: boolean } = {}) {
      await requireEndpoint(endpoints, account, id);
      const secret = generateWebhookSecret();
      const row = await endpoints.rotateEndpointSecret(account, id, secrets.encrypt(id, secret), expirePreviousNow ? 0 : SECRET_OVERLAP_HOURS);
      if (!row) throw new NotFoundError('Webhook endpoint not found');
      return { ...presentEndpoint(row), secret };
    },

    async remove(account: PartnerAccount, id: string): Promise<void> {
      const removed = isIdOf('whe', id) && (await endpoints.deleteEndpoint(account, id));
      if (!removed) throw new NotFoundError('Webhook endpoint not found');
    },
  };
}

/**
 * What an endpoint is sent: a test event, a recover of the events it missed, a failed or finished delivery sent again,
 * and its delivery log.
 */
function endpointDeliveries(deps: WebhookEndpointServiceDeps) {
  const { db, endpoints, messageLog, queue, maxAttempts, recoverMinIntervalSeconds = 60 } = deps;
  async function reopen(account: PartnerAccount, endpointId: string, messageId: string, from: ('failed' | 'succeeded')[]) {
    const { partnerId } = account;
    const endpoint = await requireEndpoint(endpoints, account, endpointId);
    const found = isIdOf('whd', messageId) ? await messageLog.findWebhookMessage(partnerId, endpointId, messageId) : undefined;
    if (!found) throw new NotFoundError('Webhook delivery not found');
    if (endpoint.status !== 'enabled') throw new ConflictError('The webhook endpoint is disabled; register it again to receive events', 'endpoint_disabled');
    if (!(await messageLog.reopenFailedWebhookMessage(messageId, from))) {
      throw from.includes('succeeded')
        ? new ConflictError(`Only a finished delivery can be replayed (this one is ${found.status})`, 'delivery_pending')
        : new ConflictError(`Only a failed delivery can be retried (this one is ${found.status})`, 'delivery_not_failed');
    }
    // Read back before enqueueing, so the answer shows the delivery as reopened, not a race with the worker.
    const reopened = (await messageLog.findWebhookMessage(partnerId, endpointId, messageId))!;
    const attempts = await messageLog.attemptsOf([messageId]);
    await enqueueWebhookMessages(queue, [found]);
    return presentWebhookMessage(reopened, attempts);
  }

  return {
    /** Sends a `webhook.test` event to this endpoint alone (signed and retried like any other); 409 when disabled. */
    async sendTestEvent(account: PartnerAccount, id: string) {
      return sendToEndpointAlone(deps, account, id, 'send a test event', (endpoint) => ({
        type: 'webhook.test',
        data: { endpoint_id: id, url: endpoint.url, message: 'A test event sent from the webhooks API' },
      }));
    },

    /**
     * Sends again every event since `since` (and never from before the endpoint was made) the endpoint receives and did
     * not acknowledge (with `include_succeeded`, the acknowledged ones too): after an outage, or after re-enabling. 409
     * when the endpoint is disabled or an earlier recover's messages are still pending (`recover_in_progress`); 429
     * within the interval of the partner's last recover in this mode, whichever endpoint it was for.
     */
    async recover(account: PartnerAccount, id: string, input: RecoverInput) {
      const { partnerId } = account;
      let since = input.since;
      const messages = await db.transaction(async (trx) => {
        const endpoint = isIdOf('whe', id) ? await endpoints.lockEndpoint(trx, account, id) : undefined;
        if (!endpoint) throw new NotFoundError('Webhook endpoint not found');
        if (endpoint.status !== 'enabled') throw new ConflictError('The webhook endpoint is disabled; enable it before recovering its events', 'endpoint_disabled');
        // Recovers coalesce: one at a time per endpoint, and at most one per interval.
        if (await messageLog.recoverInProgress(trx, id)) {
          throw new ConflictError('A recover of this webhook endpoint is still in progress; wait until its events are sent', 'recover_in_progress');
        }
        const wait = await endpoints.takeRecoverSlot(trx, account, recoverMinIntervalSeconds);
        if (wait > 0) throw new ApiError(429, 'rate_limited', `A webhook endpoint of this account was recovered less than ${recoverMinIntervalSeconds} s ago; try again in ${wait} s`, {}, { 'Retry-After': String(wait) });
        since = endpoint.created_at > input.since ? endpoint.created_at : input.since;
        return messageLog.recoverWebhookMessages(trx, {
          partnerId,
          livemode: endpoint.livemode,
          endpointId: id,
          types: [...endpoint.events, ...ALWAYS_DELIVERED_EVENT_TYPES],
          since,
          includeSucceeded: input.include_succeeded ?? false,
          maxAttempts: maxAttempts ?? DEFAULT_RETRY_SCHEDULE_MS.length + 1,
        });
      });
      await enqueueWebhookMessages(queue, messages);
      return { endpoint_id: id, since: since.toISOString(), include_succeeded: input.include_succeeded ?? false, queued: messages.length };
    },

    async listWebhookMessages(account: PartnerAccount, endpointId: string, page: PageRequest & WebhookMessageFilter) {
      const { partnerId } = account;
      await requireEndpoint(endpoints, account, endpointId);
      const rows = await messageLog.listWebhookMessages(partnerId, endpointId, page);
      const shown = rows.slice(0, page.limit);
      const attempts = await messageLog.attemptsOf(shown.map((d) => d.id));
      return pageOf(rows, page.limit, (d) => presentWebhookMessage(d, attempts.filter((a) => a.delivery_id === d.id)));
    },

    /** Sends a failed message again (one more attempt); 409 when it is not failed or the endpoint is disabled. */
    async retryWebhookMessage(account: PartnerAccount, endpointId: string, messageId: string) {
      return reopen(account, endpointId, messageId, ['failed']);
    },

    /** Sends a finished message (failed or succeeded) once more, as Svix's replay; 409 while it is still pending. */
    async replayWebhookMessage(account: PartnerAccount, endpointId: string, messageId: string) {
      return reopen(account, endpointId, messageId, ['failed', 'succeeded']);
    },
  };
}

/**
 * One event written to the outbox for one endpoint only and queued for the worker (signed, retried and logged like any
 * other): a test event, or an example event. 404 for another partner's or mode's endpoint, 409 when it is disabled.
 */
async function sendToEndpointAlone(
  { db, endpoints, messageLog, queue, appendEvent, maxAttempts }: WebhookEndpointServiceDeps,
  account: PartnerAccount,
  id: string,
  what: string,
  eventFor: (endpoint: WebhookEndpointRow) => { type: string; example?: true; data: Record<string, unknown> },
) {
  const { partnerId } = account;
  if (!appendEvent) throw new Error('events sent to one endpoint need the outbox (appendEvent)');
  const message = await db.transaction(async (trx) => {
    const endpoint = isIdOf('whe', id) ? await endpoints.lockEndpoint(trx, account, id) : undefined;
    if (!endpoint) throw new NotFoundError('Webhook endpoint not found');
    if (endpoint.status !== 'enabled') throw new ConflictError(`The webhook endpoint is disabled; enable it to ${what}`, 'endpoint_disabled');
    const event = await appendEvent(trx, {
      partnerId,
      livemode: endpoint.livemode,
      ...eventFor(endpoint),
      objectType: 'webhook_endpoint',
      objectId: id,
      sequence: await nextEndpointEventSequence(trx, id),
    });
    await messageLog.markEventDispatched(trx, event.id);
    return messageLog.insertWebhookMessage(trx, { id: newId('whd'), event_id: event.id, endpoint_id: id, partner_id: partnerId, max_attempts: maxAttempts ?? DEFAULT_RETRY_SCHEDULE_MS.length + 1 });
  });
  await enqueueWebhookMessages(queue, [message]);
  return presentWebhookMessage(message, []);
}

/** The dashboard's Svix-like additions: an example event of any catalog type, and the endpoint's delivery statistics. */
function endpointInsights(deps: WebhookEndpointServiceDeps) {
  const { endpoints, messageLog } = deps;
  return {
    /**
     * Sends one event of a subscribable type with the given example `data` to this endpoint alone, through the outbox
     * and the worker like any other (signed, retried, logged). The event says `"example": true`, and it is about the
     * endpoint (not a ride or delivery), so no job's event sequence moves. 409 when the endpoint is disabled.
     */
    async sendExampleEvent(account: PartnerAccount, id: string, input: { event_type: SubscribableEventType; data: Record<string, unknown> }) {
      return sendToEndpointAlone(deps, account, id, 'send an example event', () => ({ type: input.event_type, example: true, data: input.data }));
    },

    /**
     * Svix-like statistics of the endpoint's deliveries over the last 24 hours and 7 days: messages, attempts, the share
     * answered 2xx and the attempts' p50/p95 latency. Another organization's or mode's endpoint: 404.
     */
    async endpointStats(account: PartnerAccount, id: string, now = new Date()) {
      await requireEndpoint(endpoints, account, id);
      const row = await messageLog.endpointStats(account.partnerId, id, now);
      const windowOf = (window: '24h' | '7d', hours: number, suffix: '24h' | '7d') => {
        const attempts = row[`attempts_${suffix}`];
        const succeeded = row[`succeeded_${suffix}`];
        const latency = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);
        return {
          window,
          since: new Date(now.getTime() - hours * 3600_000).toISOString(),
          messages: row[`messages_${suffix}`],
          attempts,
          succeeded,
          failed: attempts - succeeded,
          success_rate: attempts === 0 ? null : Math.round((succeeded / attempts) * 10_000) / 10_000,
          latency_ms: { p50: latency(row[`p50_${suffix}`]), p95: latency(row[`p95_${suffix}`]) },
        };
      };
      return { endpoint_id: id, computed_at: now.toISOString(), windows: [windowOf('24h', 24, '24h'), windowOf('7d', 7 * 24, '7d')] };
    },

  };
}

/** Registration, listing, deletion and the delivery log of a partner's webhook endpoints. */
export function createWebhookEndpointService(deps: WebhookEndpointServiceDeps) {
  return { ...endpointRegistry(deps), ...endpointDeliveries(deps), ...endpointInsights(deps) };
}

export type WebhookEndpointService = ReturnType<typeof createWebhookEndpointService>;

/** URLs compare as the URL parser spells them (`HTTPS://Example.com:443/x` is `https://example.com/x`). */
function sameUrl(stored: string, candidate: URL): boolean {
  try {
    return new URL(stored).href === candidate.href;
  } catch {
    return stored === candidate.href;
  }
}

