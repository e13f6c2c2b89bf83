import { Router } from 'express';
import { NotFoundError, pageOf, parseOrThrow, adminOf } from '@platform/service-kit';
import type { CreditsRepository } from './credits.repository';
import { presentEntry } from './credits.presenter';
import { ledgerQuery } from './credits.schema';


/** `/admin/v1/credits`: the organization's balance with the caller's plan, and its credit ledger; any role reads. */
export function creditAdminRoutes(credits: CreditsRepository): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const row = await credits.balance(adminOf(req).org, adminOf(req).sub);
    if (!row) throw new NotFoundError('Organization not found');
    res.json({ organization: row.organization_name, balance: row.balance, plan: row.plan });
  });
  router.get('/ledger', async (req, res) => {
    const page = parseOrThrow(ledgerQuery, req.query);
    res.json(pageOf(await credits.ledger(adminOf(req).org, page), page.limit, presentEntry));
  });
  return router;
}
