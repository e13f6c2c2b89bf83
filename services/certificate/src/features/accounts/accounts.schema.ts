import { z } from 'zod';
import { MEMBER_ROLES } from './accounts.repository';

const email = z.email('must be an email address').max(254);
const password = z.string().min(10, 'must be at least 10 characters').max(200);
/** Control characters (line breaks included) and bidirectional overrides: a name is shown in mails, pages and credentials. */
const CONTROL_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
const displayName = () => z.string().trim().min(1, 'is required').max(100).refine((value) => !CONTROL_CHARACTERS.test(value), 'must not contain control characters or line breaks');
const personName = displayName();
const organizationName = displayName();
const organizationId = z.string().min(1).max(200);

export const signUpSchema = z
  .object({ email, password, name: personName, organization_name: organizationName.optional(), invitation_token: z.string().min(1).max(200).optional() })
  .strict()
  .meta({
    id: 'SignUp',
    description:
      'A new account, made once the link mailed to `email` is used together with this `password` (`POST /verify-email`); a newer sign-up for the same address voids the older links. With `organization_name` it owns a new organization; with `invitation_token` it joins the inviting one.',
    examples: [{ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Lovelace', organization_name: 'Analytical Academy' }],
  });

const mailedToken = z.string().regex(/^[A-Za-z0-9_-]{20,200}$/, 'must be the token of the mailed link');

export const verifyEmailSchema = z
  .object({ token: mailedToken, password: z.string().min(1).max(200) })
  .strict()
  .meta({
    id: 'VerifyEmail',
    description:
      'The token of the link mailed at sign-up and the password chosen at that sign-up: the link proves the mailbox, the password the one who signed up, so a sign-up someone else made with this address never becomes an account.',
    examples: [{ token: 'q0Fz3wXcV8yV2m2pW8bC1aH5QmGk0r8sTqZ7nJ4eLx0', password: 'correct horse battery' }],
  });

export const passwordResetSchema = z
  .object({ email })
  .strict()
  .meta({ id: 'PasswordReset', examples: [{ email: 'ada@example.com' }] });

export const passwordResetConfirmSchema = z
  .object({ token: mailedToken, password })
  .strict()
  .meta({ id: 'PasswordResetConfirm', description: 'The token of the mailed reset link and the new password.', examples: [{ token: 'q0Fz3wXcV8yV2m2pW8bC1aH5QmGk0r8sTqZ7nJ4eLx0', password: 'a new correct horse' }] });

export const signInSchema = z
  .object({ email: z.string().min(1).max(254), password: z.string().min(1).max(200), organization_id: organizationId.optional() })
  .strict()
  .meta({ id: 'SignIn', examples: [{ email: 'grace@example.com', password: 'correct horse battery' }] });

export const refreshSchema = z
  .object({ organization_id: organizationId.optional() })
  .strict()
  .meta({ id: 'RefreshSession', description: 'Optionally switch to another organization the account belongs to.', examples: [{}] });

export const newOrganizationSchema = z.object({ name: organizationName }).strict().meta({ id: 'NewOrganization', examples: [{ name: 'Second Academy' }] });

export const memberPatchSchema = z
  .object({ role: z.enum(MEMBER_ROLES) })
  .strict()
  .meta({ id: 'MemberPatch', examples: [{ role: 'member' }] });

export const newInvitationSchema = z
  .object({ role: z.enum(MEMBER_ROLES), email: email.optional() })
  .strict()
  .meta({
    id: 'NewInvitation',
    description: 'With `email`, only an account with that email (case-insensitively) can use the link.',
    examples: [{ role: 'member', email: 'linus@example.com' }, { role: 'operator' }],
  });
