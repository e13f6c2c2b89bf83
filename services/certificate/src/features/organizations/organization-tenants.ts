import type { Request } from 'express';
import { addressBucket, clientAddress } from '@platform/service-kit/client-address';
import type { Knex } from '@platform/service-kit/db';
import type { Tenant } from '@platform/service-kit/governor';

/** How long an organization's account and plan are remembered: a plan bought shows in the governor's shares after this. */
const TENANT_CACHE_MS = 30_000;
const TENANT_CACHE_MAX = 10_000;

interface OwnerRow {
  account_id: string | null;
  paid: boolean;
}

/**
 * Who spends the governor's units (`@platform/service-kit/governor`): a dashboard request's organization and the account
 * that owns it (its owner membership; an organization made by the operator CLI, which has none, is its own account),
 * paying when any organization the account owns has a paid plan; a request without a token (sign-up, password reset)
 * is its client address (IPv6 by /64), on the free plan.
 */
export function createTenantResolver(db: Knex, trustProxyHops: number) {
  const cache = new Map<string, { tenant: Tenant; until: number }>();

  async function ofOrganization(organization: string): Promise<Tenant> {
    const cached = cache.get(organization);
    if (cached && cached.until > Date.now()) return cached.tenant;
    const { rows } = await db.raw<{ rows: OwnerRow[] }>(
      `select owner.account_id,
              exists (select 1 from users u
                       where coalesce(u.plan, 'free') <> 'free'
                         and (u.organization_id = ?
                              or u.organization_id in (select o.organization_id from memberships o where o.account_id = owner.account_id and o.role = 'owner'))) as paid
         from (select (select m.account_id from memberships m where m.organization_id = ? and m.role = 'owner' order by m.created_at, m.account_id limit 1) as account_id) owner`,
      [organization, organization],
    );
    const row = rows[0];
    const tenant: Tenant = { account: row?.account_id ?? `organization:${organization}`, organization, plan: row?.paid ? 'paid' : 'free' };
    if (cache.size >= TENANT_CACHE_MAX) cache.clear();
    cache.set(organization, { tenant, until: Date.now() + TENANT_CACHE_MS });
    return tenant;
  }

  const ofRequest = (req: Request): Tenant | Promise<Tenant> => {
    if (req.admin) return ofOrganization(req.admin.org);
    const address = `address:${addressBucket(clientAddress(req, trustProxyHops))}`;
    return { account: address, organization: address, plan: 'free' };
  };
  // Work an organization causes outside a request (its recipient mails) is governed as the organization's too.
  return Object.assign(ofRequest, { ofOrganization });
}

export type TenantResolver = ReturnType<typeof createTenantResolver>;
