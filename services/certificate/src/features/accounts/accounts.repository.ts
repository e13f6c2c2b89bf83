import type { Knex } from '@platform/service-kit/db';

export type MemberRole = 'owner' | 'member' | 'operator';
export const MEMBER_ROLES = ['owner', 'member', 'operator'] as const;

export interface AccountRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  email_verified_at?: Date | null;
}

export interface MembershipView {
  organization_id: string;
  organization_name: string;
  role: MemberRole;
}

export interface RefreshSessionRow {
  id: string;
  account_id: string;
  family_id: string;
  organization_id: string | null;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

export interface InvitationRow {
  id: string;
  organization_id: string;
  role: MemberRole;
  email: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  /** When the invitation was mailed to `email` (which the mail proves); null for a link handed over. */
  mailed_at?: Date | null;
}

/** Accounts, memberships, refresh sessions and invitations of the `certificate` schema; every query names its organization where one applies. */
export function createAccountsRepository(db: Knex) {
  return { db, ...accountQueries(db), ...membershipQueries(db), ...refreshSessionQueries(db), ...invitationQueries(db) };
}

/** The accounts themselves: found by email or id, created, their password hash, verification and free-credit grant. */
function accountQueries(db: Knex) {
  return {
    async findAccountByEmail(email: string, trx: Knex = db): Promise<AccountRow | undefined> {
      return trx('accounts').whereRaw('lower(email) = lower(?)', [email]).first('id', 'email', 'name', 'password_hash', 'email_verified_at');
    },
    async findAccount(id: string, trx: Knex = db): Promise<AccountRow | undefined> {
      return trx('accounts').where({ id }).first('id', 'email', 'name', 'password_hash', 'email_verified_at');
    },
    /** false when the email is taken (case-insensitively). */
    async insertAccount(trx: Knex, row: AccountRow): Promise<boolean> {
      const inserted = await trx('accounts').insert(row).onConflict(db.raw('(lower(email))')).ignore().returning('id');
      return inserted.length === 1;
    },
    /** A successful sign-in with an older hash's parameters stores the new hash. */
    async setPasswordHash(trx: Knex, id: string, passwordHash: string): Promise<void> {
      await trx('accounts').where({ id }).update({ password_hash: passwordHash, updated_at: trx.fn.now() });
    },
    async markEmailVerified(trx: Knex, id: string): Promise<void> {
      await trx('accounts').where({ id }).whereNull('email_verified_at').update({ email_verified_at: trx.fn.now(), updated_at: trx.fn.now() });
    },
    /** Claims the account's one free-credit grant: true once, for a verified account, whatever races. */
    async claimFreeCredits(trx: Knex, id: string): Promise<boolean> {
      const rows = await trx('accounts').where({ id }).whereNotNull('email_verified_at').whereNull('free_credits_granted_at').update({ free_credits_granted_at: trx.fn.now() }).returning('id');
      return rows.length === 1;
    },
    /** Organizations the account owns, counted under a lock on the account so two creations cannot both pass the limit. */
    async lockAndCountOwned(trx: Knex, id: string): Promise<number> {
      await trx('accounts').where({ id }).forUpdate().first('id');
      const [row] = await trx('memberships').where({ account_id: id, role: 'owner' }).count({ n: '*' });
      return Number(row!.n);
    },
  };
}

/** Who belongs to which organization, with which role. */
function membershipQueries(db: Knex) {
  return {
    async memberships(accountId: string, trx: Knex = db): Promise<MembershipView[]> {
      return trx('memberships as m')
        .join('organizations as o', 'o.id', 'm.organization_id')
        .where('m.account_id', accountId)
        .orderBy([{ column: 'm.created_at' }, { column: 'm.organization_id' }])
        .select('m.organization_id', 'o.name as organization_name', 'm.role');
    },
    async membership(organizationId: string, accountId: string, trx: Knex = db): Promise<{ role: MemberRole } | undefined> {
      return trx('memberships').where({ organization_id: organizationId, account_id: accountId }).first('role');
    },
    /** Adds the membership unless the account already has one there (its role then stays). */
    async addMembership(trx: Knex, organizationId: string, accountId: string, role: MemberRole): Promise<void> {
      await trx('memberships').insert({ organization_id: organizationId, account_id: accountId, role }).onConflict(['organization_id', 'account_id']).ignore();
    },
    async members(organizationId: string) {
      return db('memberships as m')
        .join('accounts as a', 'a.id', 'm.account_id')
        .where('m.organization_id', organizationId)
        .orderBy([{ column: 'm.created_at' }, { column: 'm.account_id' }])
        .select('m.account_id', 'a.email', 'a.name', 'm.role', 'm.created_at');
    },
    /** The organization's memberships, locked for a change that must keep one owner. */
    async lockMemberships(trx: Knex, organizationId: string): Promise<Array<{ account_id: string; role: MemberRole }>> {
      return trx('memberships').where({ organization_id: organizationId }).forUpdate().select('account_id', 'role');
    },
    async setRole(trx: Knex, organizationId: string, accountId: string, role: MemberRole): Promise<void> {
      await trx('memberships').where({ organization_id: organizationId, account_id: accountId }).update({ role, updated_at: trx.fn.now() });
    },
    async removeMembership(trx: Knex, organizationId: string, accountId: string): Promise<void> {
      await trx('memberships').where({ organization_id: organizationId, account_id: accountId }).delete();
    },
  };
}

/** Dashboard sign-ins: refresh sessions, rotated within their family (one sign-in), revoked by family or organization. */
function refreshSessionQueries(db: Knex) {
  return {
    async insertRefreshSession(trx: Knex, row: { id: string; account_id: string; family_id: string; organization_id: string | null; token_hash: string; expires_at: Date }) {
      await trx('refresh_sessions').insert(row);
    },
    async findRefreshSession(hash: string, trx: Knex = db): Promise<RefreshSessionRow | undefined> {
      return trx('refresh_sessions').where({ token_hash: hash }).first('id', 'account_id', 'family_id', 'organization_id', 'expires_at', 'rotated_at', 'revoked_at');
    },
    /** Marks one live session rotated; false when another request rotated (or revoked) it first. */
    async claimForRotation(trx: Knex, id: string): Promise<boolean> {
      const rows = await trx('refresh_sessions').where({ id }).whereNull('rotated_at').whereNull('revoked_at').update({ rotated_at: trx.fn.now() }).returning('id');
      return rows.length === 1;
    },
    async setSessionOrganization(id: string, organizationId: string): Promise<void> {
      await db('refresh_sessions').where({ id }).whereNull('revoked_at').update({ organization_id: organizationId });
    },
    /** When a sign-in began (its family's first session) and whether any of its sessions is still live. */
    async familyState(familyId: string, trx: Knex = db): Promise<{ account_id: string; started_at: Date; live: boolean } | undefined> {
      const row = await trx('refresh_sessions')
        .where({ family_id: familyId })
        .first(
          trx.raw('min(account_id) as account_id'),
          trx.raw('min(created_at) as started_at'),
          trx.raw('coalesce(bool_or(revoked_at is null and expires_at > now()), false) as live'),
        );
      return row?.account_id ? (row as { account_id: string; started_at: Date; live: boolean }) : undefined;
    },
    async revokeFamily(familyId: string, trx: Knex = db): Promise<void> {
      await trx('refresh_sessions').where({ family_id: familyId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    },
    async revokeAllSessions(trx: Knex, accountId: string): Promise<void> {
      await trx('refresh_sessions').where({ account_id: accountId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    },
    /** Sessions of an account that name this organization: a removed member's sign-ins there end. */
    async revokeSessionsIn(trx: Knex, organizationId: string, accountId: string): Promise<void> {
      await trx('refresh_sessions').where({ organization_id: organizationId, account_id: accountId }).whereNull('revoked_at').update({ revoked_at: trx.fn.now() });
    },
  };
}

/** Invitations to an organization: created within a daily cap, listed while pending, used once, deleted. */
function invitationQueries(db: Knex) {
  return {
    /**
     * Inserts an invitation unless the organization made `perDay` in the last 24 hours: then nothing is inserted and the
     * answer is the seconds until the oldest of them leaves the window. The count and the insert hold the organization's
     * lock, so concurrent invitations cannot pass the cap together.
     */
    async insertInvitationWithinCap(row: { id: string; organization_id: string; token_hash: string; role: MemberRole; email: string | null; created_by: string; expires_at: Date }, perDay: number): Promise<{ created: InvitationRow } | { retryAfterSeconds: number }> {
      return db.transaction(async (trx) => {
        await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`invitations:${row.organization_id}`]);
        const recent = trx('invitations').where({ organization_id: row.organization_id }).where('created_at', '>', trx.raw("now() - interval '1 day'"));
        const [window] = (await recent.clone().select(trx.raw('count(*)::int as n'), trx.raw("ceil(extract(epoch from (min(created_at) + interval '1 day' - now())))::int as wait"))) as unknown as Array<{ n: number; wait: number | null }>;
        if (window && window.n >= perDay) return { retryAfterSeconds: Math.max(1, window.wait ?? 1) };
        const [created] = await trx('invitations').insert(row).returning(['id', 'organization_id', 'role', 'email', 'created_at', 'expires_at', 'used_at']);
        return { created: created as InvitationRow };
      });
    },
    /** An organization's stored name (undefined when it does not exist). */
    async organizationName(organizationId: string): Promise<string | undefined> {
      const row = await db('organizations').where({ id: organizationId }).first('name');
      return row?.name as string | undefined;
    },
    async pendingInvitations(organizationId: string): Promise<InvitationRow[]> {
      return db('invitations')
        .where({ organization_id: organizationId })
        .whereNull('used_at')
        .where('expires_at', '>', db.fn.now())
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .select('id', 'organization_id', 'role', 'email', 'created_at', 'expires_at', 'used_at');
    },
    /** A usable invitation (not used, not expired) by its token's hash, with the organization's name. */
    async findUsableInvitation(hash: string, trx: Knex = db): Promise<(InvitationRow & { organization_name: string }) | undefined> {
      return trx('invitations as i')
        .join('organizations as o', 'o.id', 'i.organization_id')
        .where('i.token_hash', hash)
        .whereNull('i.used_at')
        .where('i.expires_at', '>', trx.fn.now())
        .first('i.id', 'i.organization_id', 'i.role', 'i.email', 'i.created_at', 'i.expires_at', 'i.used_at', 'i.mailed_at', 'o.name as organization_name');
    },
    /** The invitation's mail went out: its address is proven to whoever signs up with its token. */
    async markInvitationMailed(id: string): Promise<void> {
      await db('invitations').where({ id }).update({ mailed_at: db.fn.now() });
    },
    /** Uses an invitation once; false when another request used it first. */
    async useInvitation(trx: Knex, id: string, accountId: string): Promise<boolean> {
      const rows = await trx('invitations').where({ id }).whereNull('used_at').update({ used_at: trx.fn.now(), used_by: accountId }).returning('id');
      return rows.length === 1;
    },
    async deleteInvitation(organizationId: string, id: string): Promise<boolean> {
      return (await db('invitations').where({ organization_id: organizationId, id }).delete()) === 1;
    },
  };
}

export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
