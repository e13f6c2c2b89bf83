import type { Knex } from '@platform/service-kit/db';

/** A test-mode job the sweep may end: its id and partner (the life cycle locks it by both). */
export interface IdleSandboxJob {
  id: string;
  partner_id: string;
}

/** The sandbox's own read of the job tables, as the tracking page has its own read of deliveries. */
export interface SandboxExpiryRepository {
  /** Test-mode jobs still in one of `openStatuses` that nothing changed for `idleSeconds` (oldest first, at most `limit`). */
  findIdleSandboxJobs(table: 'rides' | 'deliveries', openStatuses: readonly string[], idleSeconds: number, limit: number): Promise<IdleSandboxJob[]>;
}

/** The Postgres rides and deliveries tables, read for the sandbox expiry sweep. */
export function createSandboxExpiryRepository(db: Knex): SandboxExpiryRepository {
  return {
    findIdleSandboxJobs(table, openStatuses, idleSeconds, limit) {
      return db(table)
        .select('id', 'partner_id')
        .where({ livemode: false })
        .whereIn('status', [...openStatuses])
        .andWhere('updated_at', '<', db.raw('now() - make_interval(secs => ?)', [idleSeconds]))
        .orderBy('updated_at')
        .limit(limit);
    },
  };
}
