import { PaymentRequiredError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';

/**
 * Takes credits inside the caller's transaction. The conditional update is atomic, so concurrent issuers can never
 * push the balance below 0; every change is a ledger row, so the balance always equals the ledger's sum.
 */
export async function spendCredits(trx: Knex.Transaction, organizationId: string, references: string[]): Promise<number> {
  const count = references.length;
  const [row] = await trx('organizations')
    .where({ id: organizationId })
    .andWhere('balance', '>=', count)
    .decrement('balance', count)
    .returning('balance');
  if (!row) throw new PaymentRequiredError('Insufficient certificate credits');
  await trx('credit_ledger').insert(references.map((reference) => ({ organization_id: organizationId, delta: -1, reason: 'certificate_issued', reference })));
  return (row as { balance: number }).balance;
}

/** The grants made at most once per (organization, reason, reference): the unique index `credit_ledger_once` covers these. */
export type OnceOnlyGrant = 'free_plan_grant' | 'plan_upgrade' | 'credit_top_up';

/** Adds credits once per (reason, reference); returns false when that grant was already made. */
export async function grantCreditsOnce(trx: Knex.Transaction, organizationId: string, credits: number, reason: OnceOnlyGrant, reference: string): Promise<boolean> {
  const inserted = await trx('credit_ledger')
    .insert({ organization_id: organizationId, delta: credits, reason, reference })
    .onConflict(trx.raw("(organization_id, reason, reference) where reason in ('free_plan_grant', 'plan_upgrade', 'credit_top_up')"))
    .ignore()
    .returning('id');
  if (!inserted.length) return false;
  await trx('organizations').where({ id: organizationId }).increment('balance', credits);
  return true;
}
