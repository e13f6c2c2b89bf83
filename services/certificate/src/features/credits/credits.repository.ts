import type { Knex } from '@platform/service-kit/db';

export interface CreditBalanceRow {
  organization_name: string;
  balance: number;
  plan: string;
}

export interface LedgerRow {
  id: string;
  delta: number;
  reason: string;
  reference: string | null;
  created_at: Date;
  balance_after: string | number;
}

/** The organization's balance and credit ledger, read inside that organization only. */
export function createCreditsRepository(db: Knex) {
  return {
    /** The balance is the organization's; the plan is that of the user (`sub`) within it. */
    async balance(organizationId: string, userId: string): Promise<CreditBalanceRow | undefined> {
      const { rows } = await db.raw(
        `select o.name as organization_name, o.balance, coalesce(u.plan, 'free') as plan
           from organizations o
           left join users u on u.organization_id = o.id and u.id = ?
          where o.id = ?`,
        [userId, organizationId],
      );
      return rows[0];
    },
    /** Newest first (by entry id), `limit + 1` rows after `cursor`; each with the balance right after it (the ledger's running sum). */
    async ledger(organizationId: string, page: { limit: number; cursor?: string }): Promise<LedgerRow[]> {
      const { rows } = await db.raw(
        `select * from (
           select id::text as id, delta, reason, reference, created_at, sum(delta) over (order by id) as balance_after
             from credit_ledger
            where organization_id = ?
         ) entries
          where (?::bigint is null or id::bigint < ?::bigint)
          order by id::bigint desc
          limit ?`,
        [organizationId, page.cursor ?? null, page.cursor ?? null, page.limit + 1],
      );
      return rows;
    },
  };
}

export type CreditsRepository = ReturnType<typeof createCreditsRepository>;
