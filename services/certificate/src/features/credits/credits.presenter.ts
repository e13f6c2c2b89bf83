import type { z } from 'zod';
import type { creditLedgerEntrySchema } from './credits.contract';
import type { LedgerRow } from './credits.repository';

/** A credit ledger entry as the admin API answers it. */
export function presentEntry(row: LedgerRow): z.infer<typeof creditLedgerEntrySchema> {
  return {
    id: row.id,
    amount: row.delta,
    reason: row.reason,
    reference: row.reference,
    balance_after: Number(row.balance_after),
    created_at: row.created_at.toISOString(),
  };
}
