import type { Request } from 'express';
import type { Handlers } from '@platform/service-kit/operations';
import { accountOf, type PartnerAccount } from '../api-keys';
import { adminAccountOf } from '../partners';
import type { webhookEndpointsContract } from './webhook-endpoints.contract';
import type { messageListQuerySchema } from './webhook-endpoints.schema';
import type { WebhookEndpointService } from './webhook-endpoints.service';
import type { z } from 'zod';

type MessageListQuery = z.output<typeof messageListQuerySchema>;

/** One caller's view of the endpoints: a partner's key (its account) or the dashboard (the token's organization, in the query's mode). */
function endpointOperations(service: WebhookEndpointService, accountOf: (req: Request) => PartnerAccount) {
  const when = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
  return {
    create: async ({ body, req }: { body: Parameters<WebhookEndpointService['register']>[1]; req: Request }) => ({ status: 201 as const, body: await service.register(accountOf(req), body) }),
    list: async ({ query, req }: { query: { limit: number; cursor?: string }; req: Request }) => ({ status: 200 as const, body: await service.list(accountOf(req), { limit: query.limit, cursor: query.cursor }) }),
    get: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await service.get(accountOf(req), params.id) }),
    update: async ({ params, body, req }: { params: { id: string }; body: Parameters<WebhookEndpointService['update']>[2]; req: Request }) => ({
      status: 200 as const,
      body: await service.update(accountOf(req), params.id, body),
    }),
    remove: async ({ params, req }: { params: { id: string }; req: Request }) => {
      await service.remove(accountOf(req), params.id);
      return { status: 204 as const };
    },
    rotateSecret: async ({ params, body, req }: { params: { id: string }; body: { expire_previous_now: boolean } | undefined; req: Request }) => ({
      status: 200 as const,
      body: await service.rotateSecret(accountOf(req), params.id, { expirePreviousNow: body?.expire_previous_now ?? false }),
    }),
    sendTest: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 202 as const, body: await service.sendTestEvent(accountOf(req), params.id) }),
    sendExample: async ({ params, body, req }: { params: { id: string }; body: Parameters<WebhookEndpointService['sendExampleEvent']>[2]; req: Request }) => ({
      status: 202 as const,
      body: await service.sendExampleEvent(accountOf(req), params.id, body),
    }),
    stats: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await service.endpointStats(accountOf(req), params.id) }),
    recover: async ({ params, body, req }: { params: { id: string }; body: Parameters<WebhookEndpointService['recover']>[2]; req: Request }) => ({
      status: 202 as const,
      body: await service.recover(accountOf(req), params.id, body),
    }),
    listDeliveries: async ({ params, query, req }: { params: { id: string }; query: MessageListQuery; req: Request }) => ({
      status: 200 as const,
      body: await service.listWebhookMessages(accountOf(req), params.id, {
        limit: query.limit,
        cursor: query.cursor,
        eventType: query.event_type,
        status: query.status,
        createdAfter: when(query.created_after),
        createdBefore: when(query.created_before),
      }),
    }),
    retry: async ({ params, req }: { params: { id: string; delivery_id: string }; req: Request }) => ({
      status: 202 as const,
      body: await service.retryWebhookMessage(accountOf(req), params.id, params.delivery_id),
    }),
    replay: async ({ params, req }: { params: { id: string; delivery_id: string }; req: Request }) => ({
      status: 202 as const,
      body: await service.replayWebhookMessage(accountOf(req), params.id, params.delivery_id),
    }),
  };
}

/**
 * The webhook-endpoints operations: a partner managing its own endpoints with its key, and the dashboard managing the
 * token's organization's, in the live or test mode its query asks for (one implementation, two callers).
 */
export function webhookEndpointHandlers(service: WebhookEndpointService): Handlers<typeof webhookEndpointsContract> {
  const partner = endpointOperations(service, accountOf);
  const admin = endpointOperations(service, adminAccountOf);
  return {
    createWebhookEndpoint: partner.create,
    listWebhookEndpoints: partner.list,
    getWebhookEndpoint: partner.get,
    updateWebhookEndpoint: partner.update,
    deleteWebhookEndpoint: partner.remove,
    rotateWebhookSecret: partner.rotateSecret,
    sendWebhookTestEvent: partner.sendTest,
    recoverWebhookEvents: partner.recover,
    listWebhookDeliveries: partner.listDeliveries,
    retryWebhookDelivery: partner.retry,
    replayWebhookDelivery: partner.replay,
    adminCreateWebhookEndpoint: admin.create,
    adminListWebhookEndpoints: admin.list,
    adminGetWebhookEndpoint: admin.get,
    adminUpdateWebhookEndpoint: admin.update,
    adminDeleteWebhookEndpoint: admin.remove,
    adminRotateWebhookSecret: admin.rotateSecret,
    adminSendWebhookTestEvent: admin.sendTest,
    adminSendWebhookExampleEvent: admin.sendExample,
    adminGetWebhookEndpointStats: admin.stats,
    adminRecoverWebhookEvents: admin.recover,
    adminListWebhookDeliveries: admin.listDeliveries,
    adminRetryWebhookDelivery: admin.retry,
    adminReplayWebhookDelivery: admin.replay,
  };
}
