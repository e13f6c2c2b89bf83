import type { Knex } from '@platform/service-kit';

/** A test-mode job the sweep may end: its id and partner (the life cycle locks it by both). */
export interface IdleSandboxJob {
  id: string;
  partner_id: string;
}

/**
 * Test-mode jobs still in one of `openStatuses` that nothing changed for `idleSeconds` (oldest first, at most `limit`).
 * The sandbox's own read of the job tables, as the tracking page has its own read of deliveries.
 */
export function findIdleSandboxJobs(db: Knex, table: 'rides' | 'deliveries', openStatuses: readonly string[], idleSeconds: number, limit: number): Promise<IdleSandboxJob[]> {
  return db(table)
    .select('id', 'partner_id')
    .where({ livemode: false })
    .whereIn('status', [...openStatuses])
    .andWhere('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
    .orderBy('updated_at')
    .limit(limit);
}
