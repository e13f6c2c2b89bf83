import type { Knex } from '@platform/service-kit/db';

export interface DayRow {
  date: string;
  certificates_issued: number;
  credits_used: number;
}

export type SummaryReader = ReturnType<typeof createSummaryReader>;

/**
 * Reads the summary of one organization over the last `days` UTC days, in one mode: live certificates and the credits
 * they spent, or (`livemode` false) test certificates, which spend none.
 */
export function createSummaryReader(db: Knex) {
  return async (org: string, days: number, livemode = true) => {
    const { rows } = await db.raw<{ rows: DayRow[] }>(
      `with day as (
         select d::date as date, d at time zone 'UTC' as starts
         from generate_series((now() at time zone 'UTC')::date - (?::int - 1), (now() at time zone 'UTC')::date, interval '1 day') d
       )
       select to_char(day.date, 'YYYY-MM-DD') as date,
         (select count(*) from certificates c where c.organization_id = ? and c.livemode = ? and c.created_at >= day.starts and c.created_at < day.starts + interval '1 day')::int as certificates_issued,
         (select coalesce(-sum(l.delta), 0) from credit_ledger l where ? and l.organization_id = ? and l.delta < 0 and l.created_at >= day.starts and l.created_at < day.starts + interval '1 day')::int as credits_used
       from day order by day.date`,
      [days, org, livemode, livemode, org],
    );
    const totals = await db.raw<{ rows: { certificates_issued: number; credits_used_this_month: number }[] }>(
      `select (select count(*) from certificates where organization_id = ? and livemode = ?)::int as certificates_issued,
         (select coalesce(-sum(delta), 0) from credit_ledger where ? and organization_id = ? and delta < 0
            and created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')::int as credits_used_this_month`,
      [org, livemode, livemode, org],
    );
    return { days: rows, ...totals.rows[0]! };
  };
}
