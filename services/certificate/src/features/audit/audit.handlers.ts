import { readAuditLog } from '@platform/service-kit/audit-trail';
import { adminOf } from '@platform/service-kit/admin-auth';
import type { Knex } from '@platform/service-kit/db';
import type { Handlers } from '@platform/service-kit/operations';
import type { auditRouteTable } from './audit.contract';

/** `GET /admin/v1/audit-log` (owners): the organization's log, newest first, each entry with the acting account's name and email. */
export function auditHandlers(db: Knex): Handlers<typeof auditRouteTable> {
  return {
    listAuditLog: async ({ query, req }) => {
      const page = await readAuditLog(db, adminOf(req).org, query);
      const actors = await db('accounts').whereIn('id', [...new Set(page.data.map((entry) => entry.actor_id))]).select('id', 'name', 'email');
      const byId = new Map(actors.map((actor: { id: string; name: string; email: string }) => [actor.id, actor]));
      const data = page.data.map((entry) => ({ ...entry, actor_name: byId.get(entry.actor_id)?.name ?? null, actor_email: byId.get(entry.actor_id)?.email ?? null }));
      return { status: 200, body: { ...page, data }, headers: { 'Cache-Control': 'no-store' } };
    },
  };
}
