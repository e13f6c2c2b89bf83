import { Router } from 'express';
import { z } from 'zod';
import { NotFoundError, pageOf, parseOrThrow, adminOf } from '@platform/service-kit';
import type { CreditsRepository } from './credits.repository';
import { presentEntry } from './credits.presenter';

export const ledgerQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().regex(/^[1-9][0-9]{0,17}$/, 'is not a cursor from this list').optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  })
  .meta({ id: 'CreditLedgerQuery', examples: [{ limit: 50 }] });

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
