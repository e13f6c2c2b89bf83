import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import type { summaryContract } from './summary.contract';
import type { MobilitySummaryReader } from './summary.reader';

/**
 * `GET /admin/v1/summary`: per UTC day (oldest first, ending today) the rides and deliveries created and the webhook
 * attempts made (and how many were answered 2xx) for the caller's organization, in one mode.
 */
export function summaryHandlers(summary: MobilitySummaryReader): Handlers<typeof summaryContract> {
  return {
    getAdminMobilitySummary: async ({ query, req }) => ({
      status: 200,
      body: await summary(adminOf(req).org, { days: query.days, livemode: query.mode === 'live', endpointId: query.endpoint_id }),
    }),
  };
}
