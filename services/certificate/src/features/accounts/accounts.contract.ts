import { z } from 'zod';
import { route, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { accountIdParameter, insufficientRoleResponse, invalidAdminTokenResponse, invitationTokenParameter, notFoundResponse, originParameter, refreshCookieHeader, refreshCookieParameter, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { verifyEmailSchema, memberPatchSchema, newInvitationSchema, newOrganizationSchema, passwordResetConfirmSchema, passwordResetSchema, refreshSchema, signInSchema, signUpSchema } from './accounts.schema';

export const memberRoleSchema = z.enum(["owner", "member", "operator"]).meta({ id: "MemberRole" });

export const sessionSchema = z.object({
  access_token: z.string().nullable().meta({ description: "Null while the account has no membership." }),
  token_type: z.literal("Bearer"),
  expires_in: z.literal(900),
  account: z.object({
    id: z.string().meta({ examples: ["acc_3k9x0q2m7v1b5n8c4z6d"] }),
    email: z.string(),
    name: z.string(),
  }),
  organization: z.object({
    id: z.string(),
    name: z.string(),
    role: memberRoleSchema,
  }).nullable(),
  memberships: z.array(z.object({
    organization_id: z.string(),
    organization_name: z.string(),
    role: memberRoleSchema,
  })),
}).meta({ id: "Session", description: "A signed-in dashboard session. `access_token` is an admin JWT for `/admin/v1` of both services, valid 15 minutes." });

export const invitationPreviewSchema = z.object({
  organization_name: z.string(),
  role: memberRoleSchema,
  email: z.string().meta({ description: "Present when the invitation is for one email only." }).optional(),
  expires_at: z.iso.datetime({ offset: true }),
}).meta({ id: "InvitationPreview" });

export const memberSchema = z.object({
  account_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: memberRoleSchema,
  created_at: z.iso.datetime({ offset: true }),
}).meta({ id: "Member" });

export const invitationSchema = z.object({
  id: z.string().meta({ examples: ["inv_3k9x0q2m7v1b5n8c4z6d"] }),
  role: memberRoleSchema,
  email: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  expires_at: z.iso.datetime({ offset: true }),
}).meta({ id: "Invitation" });

export const invitationWithTokenSchema = z.object({
  id: z.string().meta({ examples: ["inv_3k9x0q2m7v1b5n8c4z6d"] }),
  role: memberRoleSchema,
  email: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  expires_at: z.iso.datetime({ offset: true }),
  token: z.string().meta({ description: "Shown in this answer only." }),
  invite_url: z.url().meta({ description: "`<PUBLIC_BASE_URL>/dashboard/invite/<token>`" }),
  mailed: z.boolean().meta({ description: "Whether the link was mailed to `email`." }),
}).meta({ id: "InvitationWithToken" });

export const mailSentSchema = z.object({
  status: z.literal("mail_sent"),
  message: z.string(),
  mail_inbox_url: z.url().meta({ description: "Development only: the local mail catcher's inbox (`MAIL_INBOX_URL`, set by `pnpm start`)." }).optional(),
}).meta({ id: "MailSent" });

export const accountForbiddenResponse: ResponseObjectSpec = { id: 'AccountForbidden', description: "The request's `Origin` is not one of the dashboard's (`origin_not_allowed`), the account is not a member of the\norganization asked for (`not_a_member`), or the invitation is for another email (`invitation_email_mismatch`).\n", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/origin_not_allowed", "title": "Forbidden", "status": 403, "detail": "This request must come from the dashboard (Origin not allowed)", "error": "This request must come from the dashboard (Origin not allowed)", "code": "origin_not_allowed"}} };

export const emailTakenResponse: ResponseObjectSpec = { id: 'EmailTaken', description: "An account with this email (case-insensitively) exists (`email_taken`); nothing is created.", content: { "application/problem+json": problemSchema } };

export const wrongSignUpPasswordResponse: ResponseObjectSpec = { id: 'WrongSignUpPassword', description: "Not the password chosen at the sign-up this link was mailed for (`invalid_credentials`); no account is made and the\nlink stays usable until it expires or a newer sign-up for the address replaces it.\n", content: { "application/problem+json": problemSchema } };

export const invalidCredentialsResponse: ResponseObjectSpec = { id: 'InvalidCredentials', description: "Wrong email or password (`invalid_credentials`); the same answer whether or not the email has an account.", content: { "application/problem+json": problemSchema } };

export const emailTokenNotFoundResponse: ResponseObjectSpec = { id: 'EmailTokenNotFound', description: "The mailed link's token is unknown, expired or already used (`token_not_found`).", content: { "application/problem+json": problemSchema } };

export const mailUnavailableResponse: ResponseObjectSpec = { id: 'MailUnavailable', description: "The mail could not be handed to the SMTP server, or no `SMTP_URL` is set (`mail_unavailable`); try again later.", content: { "application/problem+json": problemSchema } };

export const organizationLimitResponse: ResponseObjectSpec = { id: 'OrganizationLimit', description: "The account already owns `MAX_ORGANIZATIONS_PER_ACCOUNT` organizations (`organization_limit_reached`).", content: { "application/problem+json": problemSchema } };

export const tooManyInvitationsResponse: ResponseObjectSpec = { id: 'TooManyInvitations', description: "The organization made `INVITATIONS_PER_ORGANIZATION_PER_DAY` (50) invitations in the last 24 hours (`rate_limited`);\n`Retry-After` says when the oldest of them leaves that window. Nothing was made or mailed.\n", headers: { "Retry-After": { description: "Seconds until another invitation can be made.", schema: z.int() } }, content: { "application/problem+json": problemSchema } };

export const tooManyAttemptsResponse: ResponseObjectSpec = { id: 'TooManyAttempts', description: "Too many failed sign-ins for this email from this address, or from this address at all, or too many sign-ups and\npassword resets from this address (`too_many_attempts`); `Retry-After` says when to try again.\n", headers: { "Retry-After": { description: "Seconds until sign-in is possible again.", schema: z.int() } }, content: { "application/problem+json": problemSchema } };

export const invalidRefreshTokenResponse: ResponseObjectSpec = { id: 'InvalidRefreshToken', description: "No refresh cookie, or one unknown, expired, revoked (`invalid_refresh_token`); or one already spent by an earlier\nrefresh (`refresh_token_reused`: every session of that sign-in is revoked); or a sign-in past its maximum lifetime\n(`session_expired`). `Set-Cookie` clears the cookie.\n", content: { "application/problem+json": problemSchema } };

export const invitationNotFoundResponse: ResponseObjectSpec = { id: 'InvitationNotFound', description: "No usable invitation with this token (`invitation_not_found`): unknown, expired, withdrawn or already used.", content: { "application/problem+json": problemSchema } };

export const lastOwnerResponse: ResponseObjectSpec = { id: 'LastOwner', description: "The change would leave the organization without an owner (`last_owner`); nothing changes.", content: { "application/problem+json": problemSchema } };

/** The admin token when one is sent, else none (the refresh cookie then names the account); typed here, since `{}` beside `{ adminJwt: [] }` is not inferred as a requirement. */
const adminJwtWhenSent: Array<Record<string, string[]>> = [{ adminJwt: [] }, {}];

export const accountsRouteTable = [
  route({
    operationId: 'signUp',
    method: 'post',
    path: '/accounts/v1/signup',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    body: signUpSchema,
    cost: 'mail',
    responses: {
      201: {
        description: 'With the token of an invitation that was mailed to this email: the mail proved the address, so the account is made verified, joined to the organization and signed in (no confirmation mail).',
        headers: { "Set-Cookie": refreshCookieHeader },
        content: { "application/json": sessionSchema },
      },
      202: mailSentSchema,
      403: accountForbiddenResponse,
      404: invitationNotFoundResponse,
      409: emailTakenResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
      429: tooManyAttemptsResponse,
      503: mailUnavailableResponse,
    },
  }),
  route({
    operationId: 'verifyEmail',
    method: 'post',
    path: '/accounts/v1/verify-email',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    body: verifyEmailSchema,
    responses: {
      201: { headers: { "Set-Cookie": refreshCookieHeader }, content: { "application/json": sessionSchema } },
      401: wrongSignUpPasswordResponse,
      403: accountForbiddenResponse,
      404: emailTokenNotFoundResponse,
      409: emailTakenResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
      429: tooManyAttemptsResponse,
    },
  }),
  route({
    operationId: 'requestPasswordReset',
    method: 'post',
    path: '/accounts/v1/password-reset',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    body: passwordResetSchema,
    cost: 'mail',
    responses: {
      202: mailSentSchema,
      403: accountForbiddenResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
      429: tooManyAttemptsResponse,
    },
  }),
  route({
    operationId: 'confirmPasswordReset',
    method: 'post',
    path: '/accounts/v1/password-reset/confirm',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    body: passwordResetConfirmSchema,
    responses: {
      200: { headers: { "Set-Cookie": refreshCookieHeader }, content: { "application/json": sessionSchema } },
      403: accountForbiddenResponse,
      404: emailTokenNotFoundResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'signIn',
    method: 'post',
    path: '/accounts/v1/sessions',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    body: signInSchema,
    responses: {
      200: { headers: { "Set-Cookie": refreshCookieHeader }, content: { "application/json": sessionSchema } },
      401: invalidCredentialsResponse,
      403: accountForbiddenResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
      429: tooManyAttemptsResponse,
    },
  }),
  route({
    operationId: 'refreshSession',
    method: 'post',
    path: '/accounts/v1/sessions/refresh',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    cookies: z.object({ pp_refresh: refreshCookieParameter }),
    body: refreshSchema,
    bodyOptional: true,
    responses: {
      200: { headers: { "Set-Cookie": refreshCookieHeader }, content: { "application/json": sessionSchema } },
      401: invalidRefreshTokenResponse,
      403: accountForbiddenResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'signOut',
    method: 'delete',
    path: '/accounts/v1/sessions/current',
    tags: ["Accounts"],
    security: [],
    headers: z.object({ Origin: originParameter }),
    cookies: z.object({ pp_refresh: refreshCookieParameter }),
    responses: {
      204: { headers: { "Set-Cookie": refreshCookieHeader } },
      403: accountForbiddenResponse,
    },
  }),
  route({
    operationId: 'createOrganization',
    method: 'post',
    path: '/accounts/v1/organizations',
    tags: ["Accounts"],
    security: adminJwtWhenSent,
    headers: z.object({ Origin: originParameter }),
    body: newOrganizationSchema,
    audit: { exempt: "An account operation (the admin token optional): the organization it makes is not yet the token's, and starts empty." },
    responses: {
      201: sessionSchema,
      401: invalidAdminTokenResponse,
      403: accountForbiddenResponse,
      409: organizationLimitResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'describeInvitation',
    method: 'get',
    path: '/accounts/v1/invitations/{token}',
    tags: ["Accounts"],
    security: [],
    params: z.object({ token: invitationTokenParameter }),
    responses: {
      200: invitationPreviewSchema,
      404: invitationNotFoundResponse,
    },
  }),
  route({
    operationId: 'acceptInvitation',
    method: 'post',
    path: '/accounts/v1/invitations/{token}/accept',
    tags: ["Accounts"],
    security: adminJwtWhenSent,
    params: z.object({ token: invitationTokenParameter }),
    headers: z.object({ Origin: originParameter }),
    audit: { exempt: "Recorded by the handler (member.joined) in the invitation's organization, which the token does not name." },
    responses: {
      200: sessionSchema,
      401: invalidAdminTokenResponse,
      403: accountForbiddenResponse,
      404: invitationNotFoundResponse,
    },
  }),
  route({
    operationId: 'listMembers',
    method: 'get',
    path: '/admin/v1/members',
    tags: ["Admin members"],
    security: [{"adminJwt": []}],
    responses: {
      200: z.object({
  data: z.array(memberSchema),
}),
      401: invalidAdminTokenResponse,
    },
  }),
  route({
    operationId: 'changeMemberRole',
    method: 'patch',
    path: '/admin/v1/members/{account_id}',
    tags: ["Admin members"],
    security: [{"adminJwt": []}],
    params: z.object({ account_id: accountIdParameter }),
    body: memberPatchSchema,
    roles: ['owner'],
    audit: 'member.role_changed',
    responses: {
      200: memberSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
      409: lastOwnerResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'removeMember',
    method: 'delete',
    path: '/admin/v1/members/{account_id}',
    tags: ["Admin members"],
    security: [{"adminJwt": []}],
    params: z.object({ account_id: accountIdParameter }),
    // Members may leave (themselves); removing another member is the owner's (the service checks).
    audit: 'member.removed',
    responses: {
      204: null,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
      409: lastOwnerResponse,
    },
  }),
  route({
    operationId: 'createInvitation',
    method: 'post',
    path: '/admin/v1/invitations',
    tags: ["Admin members"],
    security: [{"adminJwt": []}],
    body: newInvitationSchema,
    roles: ['owner'],
    audit: 'member.invited',
    cost: 'mail',
    responses: {
      201: invitationWithTokenSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
      429: tooManyInvitationsResponse,
      503: mailUnavailableResponse,
    },
  }),
  route({
    operationId: 'listInvitations',
    method: 'get',
    path: '/admin/v1/invitations',
    tags: ["Admin members"],
    security: [{"adminJwt": []}],
    responses: {
      200: z.object({
  data: z.array(invitationSchema),
}),
      401: invalidAdminTokenResponse,
    },
  }),
  route({
    operationId: 'deleteInvitation',
    method: 'delete',
    path: '/admin/v1/invitations/{id}',
    tags: ["Admin members"],
    security: [{"adminJwt": []}],
    params: z.object({ id: z.string().meta({ description: "An invitation id (`inv_…`); any other shape is a 404." }) }),
    roles: ['owner'],
    audit: 'invitation.deleted',
    responses: {
      204: null,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
    },
  }),
] as const;
