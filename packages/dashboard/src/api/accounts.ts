/**
 * Hand-written types of the accounts routes (`/accounts/v1`, gateway `/dashboard/api/auth`) and the members and
 * invitations admin routes, exactly as the dashboard contract states them. Replace with the generated types once the
 * certificate description documents these routes.
 */
export type Role = 'owner' | 'member' | 'operator' | 'platform_operator';

export interface Membership {
  organization_id: string;
  organization_name: string;
  role: Role;
}

export interface Session {
  access_token: string | null;
  token_type: 'Bearer';
  expires_in: number;
  account: { id: string; email: string; name: string };
  organization: { id: string; name: string; role: Role } | null;
  memberships: Membership[];
}

export interface SignUp {
  email: string;
  password: string;
  name: string;
  organization_name?: string;
  invitation_token?: string;
}

/** The 202 of sign-up (and password-reset requests): the same whether or not the email has an account. */
export interface MailSent {
  status: 'mail_sent';
  message: string;
  /** Development only: the local mail catcher's inbox. */
  mail_inbox_url?: string;
}

export interface SignIn {
  email: string;
  password: string;
  organization_id?: string;
}

export interface InvitationPreview {
  organization_name: string;
  role: Role;
  email?: string | null;
  expires_at: string;
}

export interface Member {
  account_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
}

export interface NewInvitation {
  role: Role;
  email?: string;
}

export interface Invitation {
  id: string;
  role: Role;
  email: string | null;
  expires_at: string;
  /** Only in the answer that creates it. */
  token?: string;
  invite_url?: string;
}

/**
 * Roles an owner can give, least privilege first: a role list's first option is what the browser shows when no value
 * is chosen (or a chosen one is lost), so it must never be owner. platform_operator is assigned by the platform only.
 */
export const ASSIGNABLE_ROLES: Role[] = ['member', 'operator', 'owner'];

/** The role an invitation starts at. */
export const LEAST_PRIVILEGED_ROLE: Role = ASSIGNABLE_ROLES[0]!;

/** The password rule of sign-up. */
export const MIN_PASSWORD_LENGTH = 10;

/** The accounts routes (below /accounts/v1, gateway /dashboard/api/auth). */
export type AccountsRoute =
  | '/signup'
  | '/verify-email'
  | '/password-reset'
  | '/password-reset/confirm'
  | '/sessions'
  | '/sessions/refresh'
  | '/sessions/current'
  | '/organizations'
  | `/invitations/${string}`
  | `/invitations/${string}/accept`;
