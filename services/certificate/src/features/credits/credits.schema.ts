import { z } from 'zod';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

export const ledgerQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().regex(/^[1-9][0-9]{0,17}$/, 'is not a cursor from this list').optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  })
  .meta({ id: 'CreditLedgerQuery', examples: [{ limit: 50 }] });
