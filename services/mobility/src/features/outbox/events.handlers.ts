import type { Request } from 'express';
import type { Handlers } from '@platform/service-kit/operations';
import { accountOf, type PartnerAccount } from '../api-keys';
import { adminAccountOf } from '../partners';
import type { eventsContract } from './events.contract';
import type { eventListQuerySchema } from './events.schema';
import type { EventsService } from './events.service';
import type { z } from 'zod';

/** The events operations: a partner's key lists its account's events; the dashboard the token's organization's, in the query's mode. */
export function eventHandlers(service: EventsService): Handlers<typeof eventsContract> {
  const list =
    (accountOf: (req: Request) => PartnerAccount) =>
    async ({ query, req }: { query: z.output<typeof eventListQuerySchema>; req: Request }) => {
      const { partnerId, livemode } = accountOf(req);
      return { status: 200 as const, body: await service.list({ partnerId, livemode, type: query.type, objectId: query.object_id, limit: query.limit, cursor: query.cursor }) };
    };
  return { listEvents: list(accountOf), adminListEvents: list(adminAccountOf) };
}
