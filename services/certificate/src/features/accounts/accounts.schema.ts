import { z } from 'zod';
import { MEMBER_ROLES } from './accounts.repository';

const email = z.email('must be an email address').max(254);
const password = z.string().min(10, 'must be at least 10 characters').max(200);
const personName = z.string().trim().min(1, 'is required').max(100);
const organizationName = z.string().trim().min(1, 'is required').max(100);
const organizationId = z.string().min(1).max(200);

export const signUpSchema = z
  .object({ email, password, name: personName, organization_name: organizationName.optional(), invitation_token: z.string().min(1).max(200).optional() })
  .strict()
  .meta({
    id: 'SignUp',
    description: 'A new account. With `organization_name` it owns a new organization; with `invitation_token` it joins the inviting one.',
    examples: [{ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Lovelace', organization_name: 'Analytical Academy' }],
  });

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
