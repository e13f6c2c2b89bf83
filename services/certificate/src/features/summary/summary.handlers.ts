import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import { adminLivemode } from '../../platform/admin-mode';
import type { summaryRouteTable } from './summary.contract';
import type { SummaryReader } from './summary.reader';

/**
 * `GET /admin/v1/summary`: the dashboard home's numbers for the caller's organization — per UTC day (oldest first) the
 * certificates issued and credits spent, the certificates issued in all, and the credits spent this calendar month
 * (with `?mode=test`: the test certificates, which spend no credits).
 */
export function summaryHandlers(summary: SummaryReader): Handlers<typeof summaryRouteTable> {
  return {
    getAdminSummary: async ({ query, req }) => ({ status: 200, body: await summary(adminOf(req).org, query.days, adminLivemode(req)) }),
  };
}
