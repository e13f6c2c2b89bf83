import type { Knex } from '@platform/service-kit/db';
import { FREE_PLAN } from '../plans';

export interface OrganizationClaims {
  org: string;
  org_name?: string;
  sub: string;
}

export interface OrganizationRow {
  id: string;
  name: string;
  balance: number;
}

export function createOrganizationsRepository(db: Knex) {
  return {
    /**
     * Organizations and users come into being the first time a dashboard token names them. A new organization gets
     * the free plan's credits once, as a ledger row, in the same transaction, unless `freeCredits: false` (an
     * account's organization: its account's one grant is made by the accounts feature).
     */
    async ensureWithUser(claims: OrganizationClaims, outer?: Knex, options: { freeCredits?: boolean } = {}): Promise<void> {
      const credits = options.freeCredits === false ? 0 : FREE_PLAN.credits;
      // Inside the caller's transaction when given one (a savepoint), so an account's new organization commits with its membership.
      await (outer ?? db).transaction(async (trx) => {
        const created = await trx('organizations')
          .insert({ id: claims.org, name: claims.org_name ?? claims.org, balance: credits })
          .onConflict('id')
          .ignore()
          .returning('id');
        // The name is set once, when the organization is made: a token's `org_name` never renames it (an admin read writes no name).
        if (created.length && credits > 0) await trx('credit_ledger').insert({ organization_id: claims.org, delta: FREE_PLAN.credits, reason: 'free_plan_grant', reference: claims.org });
        // A user is (organization, sub): the same `sub` in another organization is another user with its own plan.
        await trx('users').insert({ id: claims.sub, organization_id: claims.org }).onConflict(['organization_id', 'id']).ignore();
      });
    },
    /** The organization's first user: its owner when the organization was made by `pnpm platform org create`. */
    async firstUser(organizationId: string): Promise<string | undefined> {
      const row = await db('users').where({ organization_id: organizationId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).first('id');
      return row?.id as string | undefined;
    },
    /** The operator's word that the organization's name is really theirs: the public credential page says so. */
    async verifyName(id: string): Promise<{ id: string; name: string; name_verified_at: Date } | undefined> {
      const [row] = await db('organizations').where({ id }).update({ name_verified_at: db.raw('coalesce(name_verified_at, now())') }).returning(['id', 'name', 'name_verified_at']);
      return row;
    },
    async find(id: string): Promise<OrganizationRow | undefined> {
      return db('organizations').where({ id }).first('id', 'name', 'balance');
    },
  };
}

export type OrganizationsRepository = ReturnType<typeof createOrganizationsRepository>;
