import type { Knex } from '@platform/service-kit/db';

export interface MobilityDayRow {
  date: string;
  rides: number;
  deliveries: number;
  webhook_attempts: number;
  webhook_succeeded: number;
}

export type MobilitySummaryReader = ReturnType<typeof createMobilitySummaryReader>;

/**
 * Per UTC day (oldest first, ending today) the rides and deliveries created and the webhook attempts made (and how many
 * were answered 2xx) for an organization, in one mode, and how many of its endpoints are failing now.
 */
export function createMobilitySummaryReader(db: Knex) {
  return async (partnerId: string, { days, livemode, endpointId }: { days: number; livemode: boolean; endpointId?: string }) => {
    const { rows } = await db.raw<{ rows: MobilityDayRow[] }>(
      `with day as (
         select d::date as date, d at time zone 'UTC' as starts
         from generate_series((now() at time zone 'UTC')::date - (?::int - 1), (now() at time zone 'UTC')::date, interval '1 day') d
       ), attempts as (
         select a.created_at, a.status_code
           from webhook_attempts a
           join webhook_deliveries d on d.id = a.delivery_id
           join webhook_endpoints e on e.id = d.endpoint_id
          where e.partner_id = ? and e.livemode = ? and (?::text is null or e.id = ?::text)
            and a.created_at >= ((now() at time zone 'UTC')::date - (?::int - 1))::timestamp at time zone 'UTC'
       )
       select to_char(day.date, 'YYYY-MM-DD') as date,
         (select count(*) from rides r where r.partner_id = ? and r.livemode = ? and r.created_at >= day.starts and r.created_at < day.starts + interval '1 day')::int as rides,
         (select count(*) from deliveries v where v.partner_id = ? and v.livemode = ? and v.created_at >= day.starts and v.created_at < day.starts + interval '1 day')::int as deliveries,
         (select count(*) from attempts a where a.created_at >= day.starts and a.created_at < day.starts + interval '1 day')::int as webhook_attempts,
         (select count(*) from attempts a where a.created_at >= day.starts and a.created_at < day.starts + interval '1 day' and a.status_code between 200 and 299)::int as webhook_succeeded
       from day order by day.date`,
      [days, partnerId, livemode, endpointId ?? null, endpointId ?? null, days, partnerId, livemode, partnerId, livemode],
    );
    // Failing now: every attempt since the endpoint's last 2xx answer has failed (`failing_since` is set), disabled ones included.
    const [failing] = await db('webhook_endpoints')
      .where({ partner_id: partnerId, livemode })
      .whereNotNull('failing_since')
      .modify((query) => {
        if (endpointId) query.where({ id: endpointId });
      })
      .count<{ count: string }[]>({ count: '*' });
    const totals = rows.reduce((sum, row) => ({ rides: sum.rides + row.rides, deliveries: sum.deliveries + row.deliveries, webhook_attempts: sum.webhook_attempts + row.webhook_attempts, webhook_succeeded: sum.webhook_succeeded + row.webhook_succeeded }), { rides: 0, deliveries: 0, webhook_attempts: 0, webhook_succeeded: 0 });
    return { mode: livemode ? ('live' as const) : ('test' as const), endpoint_id: endpointId ?? null, days: rows, totals, failing_endpoints: Number(failing?.count ?? 0) };
  };
}
