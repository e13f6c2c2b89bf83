import { adminOf, NotFoundError, pageOf } from '@platform/service-kit';
import type { Handlers } from '@platform/service-kit/operations';
import type { creditsRouteTable } from './credits.contract';
import { presentEntry } from './credits.presenter';
import type { CreditsRepository } from './credits.repository';

/** `/admin/v1/credits`: the organization's balance with the caller's plan, and its credit ledger; any role reads. */
export function creditsHandlers(credits: CreditsRepository): Handlers<typeof creditsRouteTable> {
  return {
    getAdminCredits: async ({ req }) => {
      const row = await credits.balance(adminOf(req).org, adminOf(req).sub);
      if (!row) throw new NotFoundError('Organization not found');
      return { status: 200, body: { organization: row.organization_name, balance: row.balance, plan: row.plan } };
    },
    listCreditLedger: async ({ query, req }) => ({ status: 200, body: pageOf(await credits.ledger(adminOf(req).org, query), query.limit, presentEntry) }),
  };
}
