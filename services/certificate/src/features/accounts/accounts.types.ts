import type { Knex } from '@platform/service-kit/db';
import type { z } from 'zod';
import type { Mailer } from '../mail';
import type { AccountsRepository } from './accounts.repository';
import type { mailSentSchema, sessionSchema } from './accounts.contract';
import type { EmailTokensRepository } from './email-tokens.repository';
import type { SessionEvents } from './session-events';
import type { SignInThrottle } from './sign-in-throttle';

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
