import { z } from 'zod';
import { type HeaderSpec, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema, validationProblemSchema } from '@platform/service-kit/problem-schema';

export const creditsSchema = z.object({
  organization: z.string().meta({ description: "The organization's name." }),
  balance: z.int().min(0),
  plan: z.string().meta({ examples: ["free", "starter", "pro", "business"] }),
  livemode: z.boolean().meta({ description: "False when asked in test mode (a `ck_test_…` key, or `?mode=test`): the balance is the organization's one live balance either way, since test certificates spend nothing." }),
}).meta({ id: "Credits" });

export const certificateStatusSchema = z.enum(["valid", "revoked", "expired"]).meta({ id: "CertificateStatus", description: "`expired` is read off `expires_on` (UTC) at the moment of asking." });

export const verifiedStatusSchema = z.enum(["valid", "revoked", "expired", "test"]).meta({ id: "VerifiedStatus", description: "What a verifier is told: `expired` is read off `expires_on` (UTC) at the moment of asking; `test` for a test certificate (issued in test mode), whatever its state: never a real credential." });

export const refreshCookieHeader: HeaderSpec = { id: 'RefreshCookie', description: "`pp_refresh=<token>; Max-Age=2592000; Path=/dashboard/api/auth; HttpOnly; Secure; SameSite=Strict` (cleared with `Max-Age=0`).", schema: z.string() };

export const wwwAuthenticateHeader: HeaderSpec = { id: 'WWW-Authenticate', description: "`Bearer` when no credential was sent, `Bearer error=\"invalid_token\"` when the one sent is not usable (RFC 6750).", schema: z.string() };

export const eTagHeader: HeaderSpec = { id: 'ETag', description: "A strong validator of the JSON answered (weak, `W/…`, when the gateway compressed it); send it back in `If-None-Match`.", schema: z.string() };

export const documentETagHeader: HeaderSpec = { id: 'DocumentETag', description: "A strong validator of the document's bytes; a revoke changes it. Send it back in `If-None-Match` for a 304.", schema: z.string() };

export const documentCacheControlHeader: HeaderSpec = { id: 'DocumentCacheControl', description: "`public, max-age=60`: a cache keeps a document at most a minute, so a revoke shows within one.", schema: z.string() };

export const xRequestIdHeader: HeaderSpec = { id: 'X-Request-Id', description: "The caller's `X-Request-Id` when it is sane, else a generated UUID.", schema: z.string() };

export const invalidAdminTokenResponse: ResponseObjectSpec = { id: 'InvalidAdminToken', description: "The dashboard JWT is missing (`missing_token`), invalid or expired, or lacks `sub`, `org` or `role` (`invalid_token`).", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/invalid_token", "title": "Unauthorized", "status": 401, "detail": "Invalid or expired token", "error": "Invalid or expired token", "code": "invalid_token"}} };

export const insufficientRoleResponse: ResponseObjectSpec = { id: 'InsufficientRole', description: "Only owners may create, rotate, revoke and delete keys (`insufficient_role`).", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/insufficient_role", "title": "Forbidden", "status": 403, "detail": "This action needs the owner role", "error": "This action needs the owner role", "code": "insufficient_role"}} };

export const testModeNotSupportedResponse: ResponseObjectSpec = { id: 'TestModeNotSupported', description: "The session asks for test mode (`?mode=test` or `?livemode=false`); plans, credit packs, checkouts and payments are live only (`test_mode_not_supported`).", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/test_mode_not_supported", "title": "Forbidden", "status": 403, "detail": "This operation has no test mode; use a live key or live data", "error": "This operation has no test mode; use a live key or live data", "code": "test_mode_not_supported"}} };

export const ownerOnlyLiveOnlyResponse: ResponseObjectSpec = { id: 'OwnerOnlyLiveOnly', description: "Only owners may (`insufficient_role`), and only in live mode: a session asking for test mode (`?mode=test`) is refused (`test_mode_not_supported`).", content: { "application/problem+json": problemSchema } };

export const documentRendersBusyResponse: ResponseObjectSpec = { id: 'DocumentRendersBusy', description: "Not rendered now, nothing queued (`too_many_in_flight`): the certificate's organization already has\n`DOCUMENT_RENDERS_PER_ORGANIZATION` documents being rendered, or the render queue is full. Ask again after `Retry-After`.\n", headers: { "Retry-After": { description: "Seconds to wait before asking again.", schema: z.int() } }, content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/too_many_in_flight", "title": "Service Unavailable", "status": 503, "detail": "Too many of this organization's documents are being rendered; retry after 2 s", "error": "Too many of this organization's documents are being rendered; retry after 2 s", "code": "too_many_in_flight"}} };

export const renderQueueFullResponse: ResponseObjectSpec = { id: 'RenderQueueFull', description: "Not drawn, nothing queued (`too_many_in_flight`): the render queue is full (`DOCUMENT_RENDER_QUEUE` jobs waiting, all\norganizations together). Ask again after `Retry-After`.\n", headers: { "Retry-After": { description: "Seconds to wait before asking again.", schema: z.int() } }, content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/too_many_in_flight", "title": "Service Unavailable", "status": 503, "detail": "Too many documents are being rendered; retry after 2 s", "error": "Too many documents are being rendered; retry after 2 s", "code": "too_many_in_flight"}} };

export const previewRenderingResponse: ResponseObjectSpec = { id: 'PreviewRendering', description: "The preview is being drawn and was not ready within `DOCUMENT_RENDER_WAIT_MS` (the render pool is busy, or the\norganization already has renders in flight): send the same request again after `Retry-After` seconds. The render goes on\nmeanwhile and its PNG is kept for a minute, so the same draft sent again then answers 200 at once. `Cache-Control: no-store`.\n", headers: { "Retry-After": { description: "Seconds to wait before asking again (1 to 30, from the place of the organization's renders in the render queue, which serves organizations in turn).", schema: z.int() } }, content: { "application/json": z.strictObject({
  status: z.literal("rendering"),
  retry_after: z.int().min(1).meta({ description: "The same number of seconds as `Retry-After`." }),
}) }, examples: {"application/json": {"status": "rendering", "retry_after": 2}} };

export const notFoundResponse: ResponseObjectSpec = { id: 'NotFound', description: "No such record in the caller's organization (`not_found`); an id of the wrong shape is a 404 too.", content: { "application/problem+json": problemSchema } };

export const unsupportedMediaTypeResponse: ResponseObjectSpec = { id: 'UnsupportedMediaType', description: "The body is not JSON (`unsupported_media_type`).", content: { "application/problem+json": problemSchema } };

export const payloadTooLargeResponse: ResponseObjectSpec = { id: 'PayloadTooLarge', description: "The body is over the limit (`payload_too_large`).", content: { "application/problem+json": problemSchema } };

export const validationFailedResponse: ResponseObjectSpec = { id: 'ValidationFailed', description: "The body or query is not valid (`validation_failed`); `details` has one entry per problem.", content: { "application/problem+json": validationProblemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/validation_failed", "title": "Unprocessable Entity", "status": 422, "detail": "Request validation failed", "error": "Request validation failed", "code": "validation_failed", "details": [{"path": "issue_date", "message": "must be a date as YYYY-MM-DD"}]}} };

export const originParameter = z.string().meta({ examples: ["http://127.0.0.1:8080"] }).meta({ description: "One of `DASHBOARD_ORIGINS` (default `http://localhost:8080`, `http://127.0.0.1:8080`); anything else is 403 `origin_not_allowed`.", parameterId: 'Origin' });

export const refreshCookieParameter = z.string().optional().meta({ description: "The refresh token set by sign-up, sign-in and refresh.", parameterId: 'RefreshCookie' });

export const invitationTokenParameter = z.string().meta({ description: "The token of an invitation link (`/dashboard/invite/<token>`).", parameterId: 'InvitationToken' });

export const accountIdParameter = z.string().meta({ description: "A member's account id (`acc_…`); any other shape is a 404.", parameterId: 'AccountId' });

export const ifNoneMatchParameter = z.string().meta({ examples: ["\"q9Zb1x7dM0y3\""] }).optional().meta({ description: "An `ETag` from an earlier answer; while the object is unchanged the answer is a 304 without a body.", parameterId: 'IfNoneMatch' });

export const apiKeyIdParameter = z.string().meta({ description: "An API key id (`key_…`); any other shape is a 404.", parameterId: 'ApiKeyId' });

export const templateIdParameter = z.string().meta({ description: "A template id (`tpl_…`); any other shape is a 404.", parameterId: 'TemplateId' });

/** The length is documented, not enforced here: a longer code is a 404 (`not_found`, the page's 404 for a browser), as an unknown one. */
export const verificationCodeParameter = z.string().meta({ maxLength: 64 }).meta({ description: "The certificate's verification code (`ABCDEF-GHJKMN-PQRSTU`; case, spaces and dashes are ignored).", parameterId: 'VerificationCode' });

export const certificateIdParameter = z.string().meta({ description: "A certificate id (`cert_…`); any other shape is a 404.", parameterId: 'CertificateId' });
