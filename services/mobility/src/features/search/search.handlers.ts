import type { Handlers } from '@platform/service-kit/operations';
import { adminAccountOf } from '../partners';
import type { searchContract } from './search.contract';
import type { MobilitySearchReader } from './search.reader';

/** `GET /admin/v1/search`: the token's organization's rides, deliveries, event passes and endpoints matching `q`, in the query's mode. */
export function searchHandlers(search: MobilitySearchReader): Handlers<typeof searchContract> {
  return {
    adminSearchMobility: async ({ query, req }) => {
      const { partnerId, livemode } = adminAccountOf(req);
      return { status: 200, body: { query: query.q, data: await search(partnerId, { q: query.q, livemode, limit: query.limit }) } };
    },
  };
}
