import { ApiError, ConflictError, ForbiddenError, newId, signAdminToken, UnauthorizedError, type AdminClaims, type Knex } from '@platform/service-kit';
import { grantCreditsOnce } from '../credits';
import type { Mailer } from '../mail';
import { FREE_PLAN } from '../plans';
import type { AccountRow, AccountsRepository, MembershipView } from './accounts.repository';
import { accountMails } from './account-mails';
import type { EmailTokensRepository, PendingSignUp } from './email-tokens.repository';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { newSecretToken, tokenHash } from './secret-tokens';
import { NO_SESSION_EVENTS, type SessionEvents } from './session-events';
import type { SignInThrottle } from './sign-in-throttle';
import type { z } from 'zod';
import type { mailSentSchema, sessionSchema } from './accounts.contract';

/**
 * Access tokens (admin JWTs) live 15 minutes. They name their sign-in (`sid`, the refresh-session family): the gateway
 * checks on each dashboard request that it is still live and the membership still there (see `sessionIsLive`).
 */
export const ACCESS_TOKEN_TTL_S = 900;

export interface AccountsSettings {
  jwtSecret: string;
  jwtIssuer: string;
  refreshTtlDays: number;
  /** A sign-in ends this long after it began, however often it was refreshed (SESSION_MAX_LIFETIME_S). */
  sessionMaxLifetimeSeconds: number;
  invitationTtlDays: number;
  /** Where people open the dashboard: invite links are `<base>/dashboard/invite/<token>`. */
  publicBaseUrl: string;
  /** Tells the gateways a sign-in ended (sign-out, reuse, past its lifetime); none: they learn at their next check. */
  sessionEvents?: SessionEvents;
  maxOrganizationsPerAccount: number;
  emailTokenTtlHours: number;
  passwordResetTtlMinutes: number;
  /** Development's mail catcher inbox: named in the answers that send mail. */
  mailInboxUrl?: string;
}

export interface AccountsDeps {
  repo: AccountsRepository;
  tokens: EmailTokensRepository;
  throttle: SignInThrottle;
  ensureOrganization: EnsureOrganization;
  mailer: Mailer;
  /** Told of a failure in work done after the answer (a password-reset mail): the service logs it. */
  onBackgroundError?: (error: unknown, what: string) => void;
}

/** The answer of sign-up and password-reset requests: the same whether the email has an account or not. */
export type MailSent = z.infer<typeof mailSentSchema>;

/** Creates an organization (without free credits) and the `users` row of `sub` inside the caller's transaction. */
export type EnsureOrganization = (claims: { org: string; org_name?: string; sub: string }, trx: Knex) => Promise<void>;

/** A signed-in dashboard session as the accounts routes answer it. */
export type Session = z.infer<typeof sessionSchema>;

/** The dashboard sign-in a request acts in: its account and its refresh-session family (an access token's `sid`). */
export interface SignIn {
  accountId: string;
  familyId: string;
}

/** A session answer and, when a sign-in happened or rotated, the refresh token for the cookie. */
export interface SessionGrant {
  session: Session;
  refreshToken?: string;
}

export interface SignUpInput {
  email: string;
  password: string;
  name: string;
  organization_name?: string;
  invitation_token?: string;
}

const invalidRefresh = () => new UnauthorizedError('The refresh token is missing, expired or revoked; sign in again', 'invalid_refresh_token');
const sessionTooOld = () => new UnauthorizedError('This sign-in reached its maximum lifetime; sign in again', 'session_expired');
function notFoundInvitation(): never {
  throw new ApiError(404, 'invitation_not_found', 'Invitation not found, expired or already used');
}
const notVerified = () => new ForbiddenError('Confirm your email address first (a password reset confirms it too)', 'email_not_verified');
const badEmailToken = () => new ApiError(404, 'token_not_found', 'This link is unknown, expired or already used');

export function createAccountsService({ repo, tokens, throttle, ensureOrganization, mailer, onBackgroundError }: AccountsDeps, settings: AccountsSettings) {
  const db = repo.db;
  const events = settings.sessionEvents ?? NO_SESSION_EVENTS;
  const maxLifetimeMs = settings.sessionMaxLifetimeSeconds * 1000;
  const endFamily = async (familyId: string) => {
    await repo.revokeFamily(familyId);
    await events.ended({ kind: 'session', sid: familyId });
  };
  const mails = accountMails(settings.publicBaseUrl);
  const mailSent = (message: string): MailSent => ({ status: 'mail_sent', message, ...(settings.mailInboxUrl ? { mail_inbox_url: settings.mailInboxUrl } : {}) });

  /** A reset link for the account with this email, if there is one, mailed to it. */
  async function sendPasswordReset(email: string): Promise<void> {
    const account = await repo.findAccountByEmail(email);
    if (!account) return;
    const token = newSecretToken();
    const expiresAt = new Date(Date.now() + settings.passwordResetTtlMinutes * 60_000);
    await tokens.insert({ id: newId('etk'), purpose: 'password_reset', token_hash: tokenHash(token), email: account.email, account_id: account.id, expires_at: expiresAt });
    await mailer.send(mails.passwordReset(account.email, token, settings.passwordResetTtlMinutes));
  }

  /** Every dashboard access token names its sign-in (`sid`): the gateway checks that it is live before proxying. */
  function accessToken(account: AccountRow, organization: MembershipView, sid: string): string {
    return signAdminToken(
      { sub: account.id, org: organization.organization_id, org_name: organization.organization_name, role: organization.role, sid },
      settings.jwtSecret,
      { issuer: settings.jwtIssuer, ttlSeconds: ACCESS_TOKEN_TTL_S },
    );
  }

  /** The organization a session names: the one asked for (403 when not a member), else the session's, else the oldest membership. */
  function pickOrganization(memberships: MembershipView[], wanted: string | undefined, current: string | null): MembershipView | null {
    if (wanted !== undefined) {
      const found = memberships.find((m) => m.organization_id === wanted);
      if (!found) throw new ForbiddenError('You are not a member of that organization', 'not_a_member');
      return found;
    }
    return memberships.find((m) => m.organization_id === current) ?? memberships[0] ?? null;
  }

  function sessionOf(account: AccountRow, memberships: MembershipView[], organization: MembershipView | null, sid: string): Session {
    return {
      access_token: organization ? accessToken(account, organization, sid) : null,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      account: { id: account.id, email: account.email, name: account.name },
      organization: organization ? { id: organization.organization_id, name: organization.organization_name, role: organization.role } : null,
      memberships,
    };
  }

  /**
   * A new refresh session (its own family unless `familyId` continues one begun at `startedAt`); returns the cookie's
   * token. It expires REFRESH_TOKEN_TTL_DAYS from now, but never past the sign-in's maximum lifetime.
   */
  async function startRefreshSession(trx: Knex, accountId: string, organizationId: string | null, familyId: string, startedAt = new Date()): Promise<string> {
    const token = newSecretToken();
    await repo.insertRefreshSession(trx, {
      id: newId('rs'),
      account_id: accountId,
      family_id: familyId,
      organization_id: organizationId,
      token_hash: tokenHash(token),
      expires_at: new Date(Math.min(Date.now() + settings.refreshTtlDays * 86400_000, startedAt.getTime() + maxLifetimeMs)),
    });
    return token;
  }

  /** The account a live (current, unexpired) refresh token belongs to, and its session. */
  async function liveSession(refreshToken: string | undefined) {
    if (!refreshToken) return undefined;
    const row = await repo.findRefreshSession(tokenHash(refreshToken));
    if (!row || row.revoked_at || row.rotated_at || row.expires_at.getTime() <= Date.now()) return undefined;
    return row;
  }

  /**
   * A session for the organization just joined or created, its access token bound to the caller's sign-in (never a
   * token without one: a stolen access token cannot be swapped for one that outlives its sign-in). The browser's
   * refresh session, when it is that sign-in's, follows the organization, so its next refresh stays there.
   */
  async function grantFor(signIn: SignIn, organizationId: string, refreshToken: string | undefined): Promise<Session> {
    const account = (await repo.findAccount(signIn.accountId))!;
    const memberships = await repo.memberships(signIn.accountId);
    const live = await liveSession(refreshToken);
    if (live && live.account_id === signIn.accountId && live.family_id === signIn.familyId) await repo.setSessionOrganization(live.id, organizationId);
    return sessionOf(account, memberships, pickOrganization(memberships, organizationId, null), signIn.familyId);
  }

  /** An invitation naming an email is only for an account that proved it owns that email. */
  function checkInvitationEmail(invitation: { email: string | null }, account: { email: string; email_verified_at?: Date | null }) {
    if (!invitation.email) return;
    if (invitation.email.toLowerCase() !== account.email.toLowerCase()) throw new ForbiddenError('This invitation is for another email address', 'invitation_email_mismatch');
    if (!account.email_verified_at) throw notVerified();
  }

  async function joinByInvitation(trx: Knex, token: string, account: { id: string; email: string; email_verified_at?: Date | null }) {
    const invitation = await repo.findUsableInvitation(tokenHash(token), trx);
    if (!invitation) notFoundInvitation();
    checkInvitationEmail(invitation, account);
    if (!(await repo.useInvitation(trx, invitation.id, account.id))) notFoundInvitation();
    await ensureOrganization({ org: invitation.organization_id, sub: account.id }, trx);
    await repo.addMembership(trx, invitation.organization_id, account.id, invitation.role);
    return invitation.organization_id;
  }

  /** The account's one free-credit grant (verified accounts only) goes to this organization if not made yet. */
  async function grantFreeCredits(trx: Knex, accountId: string, organizationId: string): Promise<void> {
    if (await repo.claimFreeCredits(trx, accountId)) await grantCreditsOnce(trx as Knex.Transaction, organizationId, FREE_PLAN.credits, 'free_plan_grant', organizationId);
  }

  /** A new organization the account owns: at most `maxOrganizationsPerAccount` (409 `organization_limit_reached`). */
  async function createOwnedOrganization(trx: Knex, accountId: string, name: string): Promise<string> {
    if ((await repo.lockAndCountOwned(trx, accountId)) >= settings.maxOrganizationsPerAccount) {
      throw new ConflictError(`An account may own at most ${settings.maxOrganizationsPerAccount} organizations`, 'organization_limit_reached');
    }
    const organizationId = newId('org');
    await ensureOrganization({ org: organizationId, org_name: name, sub: accountId }, trx);
    await repo.addMembership(trx, organizationId, accountId, 'owner');
    await grantFreeCredits(trx, accountId, organizationId);
    return organizationId;
  }

  /**
   * An account whose email is proven (a used sign-up link whose opener also knew the sign-up's password, or the
   * operator's word), signed in; 409 when the email is taken.
   */
  async function createVerifiedAccount(trx: Knex, email: string, pending: PendingSignUp): Promise<SessionGrant> {
    const account: AccountRow = { id: newId('acc'), email, name: pending.name, password_hash: pending.password_hash };
    if (!(await repo.insertAccount(trx, account))) throw new ConflictError('An account with this email already exists', 'email_taken');
    await repo.markEmailVerified(trx, account.id);
    account.email_verified_at = new Date();
    let organizationId: string | null = null;
    if (pending.organization_name !== undefined) organizationId = await createOwnedOrganization(trx, account.id, pending.organization_name);
    if (pending.invitation_token !== undefined) organizationId = await joinByInvitation(trx, pending.invitation_token, account);
    const memberships = await repo.memberships(account.id, trx);
    const organization = pickOrganization(memberships, organizationId ?? undefined, null);
    const familyId = newId('rsf');
    const refreshToken = await startRefreshSession(trx, account.id, organization?.organization_id ?? null, familyId);
    return { session: sessionOf(account, memberships, organization, familyId), refreshToken };
  }

  /**
   * Sign-up makes no account: it mails a link to the address, and the account exists once the link is used together
   * with the password chosen here (`verifyEmail`). A new sign-up voids every older link for the address, so only the
   * newest one works. An address that has an account gets a mail saying someone tried; the answer is the same 202
   * either way.
   */
  async function signUp(input: SignUpInput, address: string): Promise<MailSent> {
    await throttle.spendSignUp(address);
    if (input.invitation_token !== undefined) {
      const invitation = await repo.findUsableInvitation(tokenHash(input.invitation_token));
      if (!invitation) notFoundInvitation();
      checkInvitationEmail(invitation, { email: input.email, email_verified_at: new Date() }); // the link will prove the email
    }
    const pending: PendingSignUp = {
      name: input.name,
      password_hash: await hashPassword(input.password),
      ...(input.organization_name !== undefined ? { organization_name: input.organization_name } : {}),
      ...(input.invitation_token !== undefined ? { invitation_token: input.invitation_token } : {}),
    };
    if (await repo.findAccountByEmail(input.email)) {
      await mailer.send(mails.alreadyRegistered(input.email));
    } else {
      const token = newSecretToken();
      await db.transaction(async (trx) => {
        await tokens.voidSignUps(trx, input.email);
        await tokens.insert(
          { id: newId('etk'), purpose: 'sign_up', token_hash: tokenHash(token), email: input.email, sign_up: pending, expires_at: new Date(Date.now() + settings.emailTokenTtlHours * 3600_000) },
          trx,
        );
      });
      await mailer.send(mails.verifyEmail(input.email, token, settings.emailTokenTtlHours));
    }
    return mailSent('Check your inbox: we sent a link to confirm your email address.');
  }

  return {
    signUp,

    async signIn(input: { email: string; password: string; organization_id?: string }, address: string): Promise<SessionGrant> {
      await throttle.check(input.email, address);
      const account = await repo.findAccountByEmail(input.email);
      if (!(await verifyPassword(input.password, account?.password_hash)) || !account) {
        await throttle.recordFailure(input.email, address);
        throw new UnauthorizedError('Wrong email or password', 'invalid_credentials');
      }
      await throttle.clearPair(input.email, address);
      if (needsRehash(account.password_hash)) await repo.setPasswordHash(db, account.id, await hashPassword(input.password));
      const memberships = await repo.memberships(account.id);
      const organization = pickOrganization(memberships, input.organization_id, null);
      const familyId = newId('rsf');
      const refreshToken = await startRefreshSession(db, account.id, organization?.organization_id ?? null, familyId);
      return { session: sessionOf(account, memberships, organization, familyId), refreshToken };
    },

    /** Rotates the refresh token: the presented one is spent; presenting a spent one again revokes its whole family. */
    async refresh(refreshToken: string | undefined, wanted: string | undefined): Promise<SessionGrant> {
      if (!refreshToken) throw invalidRefresh();
      const row = await repo.findRefreshSession(tokenHash(refreshToken));
      if (!row || row.revoked_at || row.expires_at.getTime() <= Date.now()) throw invalidRefresh();
      const family = await repo.familyState(row.family_id);
      if (!family || family.started_at.getTime() + maxLifetimeMs <= Date.now()) {
        await endFamily(row.family_id);
        throw sessionTooOld();
      }
      const reused = async () => {
        await endFamily(row.family_id);
        return new UnauthorizedError('This refresh token was already used; every session of this sign-in is now signed out', 'refresh_token_reused');
      };
      if (row.rotated_at) throw await reused();
      const outcome = await db.transaction(async (trx) => {
        if (!(await repo.claimForRotation(trx, row.id))) return undefined;
        const account = (await repo.findAccount(row.account_id, trx))!;
        const memberships = await repo.memberships(account.id, trx);
        const organization = pickOrganization(memberships, wanted, row.organization_id);
        const next = await startRefreshSession(trx, account.id, organization?.organization_id ?? null, row.family_id, family.started_at);
        return { session: sessionOf(account, memberships, organization, row.family_id), refreshToken: next };
      });
      if (!outcome) throw await reused();
      return outcome;
    },

    /** Ends the sign-in the cookie belongs to (its whole family); unknown tokens are ignored. */
    async signOut(refreshToken: string | undefined): Promise<void> {
      if (!refreshToken) return;
      const row = await repo.findRefreshSession(tokenHash(refreshToken));
      if (row) await endFamily(row.family_id);
    },

    /**
     * Whether a dashboard access token may still act: its sign-in (`sid`) has a live session within its maximum
     * lifetime, and its account is still a member of its organization with the role it names. The gateway asks this
     * (through `/internal/v1/dashboard-sessions/check`) before it proxies an admin request, and caches the answer briefly.
     */
    async sessionIsLive(claims: { sub: string; org: string; role: string; sid: string }): Promise<boolean> {
      const family = await repo.familyState(claims.sid);
      if (!family || !family.live || family.account_id !== claims.sub || family.started_at.getTime() + maxLifetimeMs <= Date.now()) return false;
      const membership = await repo.membership(claims.org, claims.sub);
      return membership?.role === claims.role;
    },

    /**
     * The sign-in a dashboard request acts in: its access token's, which must name one (`sid`) that is still live for
     * its account and membership, or else (no token) its live refresh cookie's.
     */
    async signInFor(claims: AdminClaims | undefined, refreshToken: string | undefined): Promise<SignIn> {
      if (claims !== undefined) {
        if (claims.sid === undefined) throw new UnauthorizedError('This token names no sign-in; sign in again', 'session_required');
        if (!(await this.sessionIsLive({ ...claims, sid: claims.sid }))) throw new UnauthorizedError('This sign-in has ended; sign in again', 'session_ended');
        return { accountId: claims.sub, familyId: claims.sid };
      }
      const live = await liveSession(refreshToken);
      if (!live) throw new UnauthorizedError('Missing bearer token', 'missing_token');
      return { accountId: live.account_id, familyId: live.family_id };
    },

    async createOrganization(signIn: SignIn, name: string, refreshToken: string | undefined): Promise<Session> {
      const account = (await repo.findAccount(signIn.accountId))!;
      if (!account.email_verified_at) throw notVerified();
      const organizationId = await db.transaction((trx) => createOwnedOrganization(trx, signIn.accountId, name));
      return grantFor(signIn, organizationId, refreshToken);
    },

    async describeInvitation(token: string) {
      const invitation = await repo.findUsableInvitation(tokenHash(token));
      if (!invitation) notFoundInvitation();
      return {
        organization_name: invitation.organization_name,
        role: invitation.role,
        ...(invitation.email ? { email: invitation.email } : {}),
        expires_at: invitation.expires_at.toISOString(),
      };
    },

    async acceptInvitation(signIn: SignIn, token: string, refreshToken: string | undefined): Promise<Session> {
      const account = (await repo.findAccount(signIn.accountId))!;
      const organizationId = await db.transaction((trx) => joinByInvitation(trx, token, account));
      return grantFor(signIn, organizationId, refreshToken);
    },

    /**
     * Uses a sign-up link: the account (with its organization or invitation) is made and signed in, but only when the
     * opener also gives the password chosen at sign-up. The link proves the mailbox, the password proves the one who
     * signed up: someone who signs up with another person's address cannot use the link (it is in that person's
     * mailbox), and that person cannot make the account with the stranger's password by clicking "confirm" (they do not
     * know it), so a pending sign-up never becomes an account its mailbox owner did not choose the password of.
     * A wrong password: 401 `invalid_credentials`, the link stays usable, and the failure counts towards the sign-in
     * throttle of that (email, address) pair (429 `too_many_attempts`).
     */
    async verifyEmail(token: string, password: string, address: string): Promise<SessionGrant> {
      const hash = tokenHash(token);
      const pending = await tokens.findLive('sign_up', hash);
      if (!pending?.sign_up) throw badEmailToken();
      await throttle.check(pending.email, address);
      if (!(await verifyPassword(password, pending.sign_up.password_hash))) {
        await throttle.recordFailure(pending.email, address);
        throw new UnauthorizedError('This is not the password chosen when signing up with this address', 'invalid_credentials');
      }
      await throttle.clearPair(pending.email, address);
      return db.transaction(async (trx) => {
        const row = await tokens.use(trx, 'sign_up', hash);
        if (!row?.sign_up) throw badEmailToken();
        return createVerifiedAccount(trx, row.email, row.sign_up);
      });
    },

    /** Mails a reset link when the email has an account; the answer is the same 202 either way. */
    /**
     * The same answer, the same work before it and so the same timing whether or not the email has an account (and
     * whether or not mail works): the look-up, the link and the mail happen after the answer, and a failure there is
     * logged, never answered.
     */
    async requestPasswordReset(email: string, address: string): Promise<MailSent> {
      await throttle.spendSignUp(address);
      setImmediate(() => {
        sendPasswordReset(email).catch((error: unknown) => onBackgroundError?.(error, 'password reset mail not sent'));
      });
      return mailSent('If an account has this email, we sent it a link to choose a new password.');
    },

    /** Uses a reset link: the new password is stored, the email counts as verified, every other sign-in ends; signed in. */
    async confirmPasswordReset(token: string, password: string): Promise<SessionGrant> {
      const passwordHash = await hashPassword(password);
      const grant = await db.transaction(async (trx) => {
        const row = await tokens.use(trx, 'password_reset', tokenHash(token));
        if (!row?.account_id) throw badEmailToken();
        await tokens.voidAll(trx, 'password_reset', row.account_id); // one reset: every other link of the account dies
        await repo.setPasswordHash(trx, row.account_id, passwordHash);
        await repo.markEmailVerified(trx, row.account_id);
        await repo.revokeAllSessions(trx, row.account_id);
        const account = (await repo.findAccount(row.account_id, trx))!;
        const memberships = await repo.memberships(account.id, trx);
        const organization = pickOrganization(memberships, undefined, null);
        const familyId = newId('rsf');
        const refreshToken = await startRefreshSession(trx, account.id, organization?.organization_id ?? null, familyId);
        return { grant: { session: sessionOf(account, memberships, organization, familyId), refreshToken }, memberships };
      });
      // The other sign-ins ended with the reset: the gateways drop what they cached of them (as for a removed member).
      for (const membership of grant.memberships) await events.ended({ kind: 'member', sub: grant.grant.session.account.id, org: membership.organization_id });
      return grant.grant;
    },

    /** The operator command's first owner: a verified account (the operator vouches) owning a new organization (409 when the email is taken). */
    async createOwner(input: { email: string; password: string; name: string; organization_name: string }) {
      const pending: PendingSignUp = { name: input.name, password_hash: await hashPassword(input.password), organization_name: input.organization_name };
      const { session } = await db.transaction((trx) => createVerifiedAccount(trx, input.email, pending));
      return { account: session.account, organization: session.organization };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
