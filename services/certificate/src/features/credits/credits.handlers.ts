import { NotFoundError } from '@platform/service-kit/errors';
import { pageOf } from '@platform/service-kit/pagination';
import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import { adminLivemode } from '../../platform/admin-mode';
import type { creditsRouteTable } from './credits.contract';
import type { CreditsRepository } from './credits.repository';
import { presentEntry } from './credits.presenter';

/** `/admin/v1/credits`: the organization's balance with the caller's plan (the live balance in test mode too), and its credit ledger; any role reads. */
export function creditsHandlers(credits: CreditsRepository): Handlers<typeof creditsRouteTable> {
  return {
    getAdminCredits: async ({ req }) => {
      const { org, sub } = adminOf(req);
      const row = await credits.balance(org, sub);
      if (!row) throw new NotFoundError('Organization not found');
      return { status: 200, body: { organization: row.organization_name, balance: row.balance, plan: row.plan, livemode: adminLivemode(req) } };
    },
    listCreditLedger: async ({ query, req }) => ({ status: 200, body: pageOf(await credits.ledger(adminOf(req).org, query), query.limit, presentEntry) }),
  };
}
