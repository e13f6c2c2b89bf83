import { z } from 'zod';
import { route, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { creditsSchema, verifiedStatusSchema, eTagHeader, ifNoneMatchParameter, wwwAuthenticateHeader, xRequestIdHeader } from '../../http-contract';

export const verificationSchema = z.object({
  valid: z.boolean(),
  recipient_name: z.string(),
  program_title: z.string(),
  organization_name: z.string(),
  issue_date: z.iso.date(),
  certificate_number: z.string(),
  certificate_status: verifiedStatusSchema,
  reason: z.string().optional().meta({ description: "Only for a test certificate (`certificate_status: test`): it was issued in test mode and is not a real credential." }),
}).meta({ id: "Verification" });

export const verificationNotFoundSchema = z.object({
  valid: z.literal(false),
  type: z.url().meta({ description: "The documentation URL of the code: `ERROR_DOCS_BASE_URL` followed by the code (default https://docs.partner-platform.example/errors/<code>)." }),
  title: z.string().meta({ description: "The HTTP status's reason phrase." }),
  status: z.int().min(400).max(599).meta({ description: "The HTTP status of this answer." }),
  detail: z.string().meta({ description: "Text for a person about this occurrence." }),
  error: z.string().meta({ description: "The same text as `detail`, kept for clients written before Problem Details." }),
  code: z.literal("not_found"),
}).meta({ id: "VerificationNotFound" });

export const notModifiedResponse: ResponseObjectSpec = { id: 'NotModified', description: "The object is unchanged since the answer whose `ETag` was sent in `If-None-Match`; no body.", headers: { "ETag": eTagHeader } };

export const invalidApiKeyResponse: ResponseObjectSpec = { id: 'InvalidApiKey', description: "The API key is missing (`missing_api_key`, \"Missing API key\") or invalid, revoked, rotated away or deleted\n(`invalid_api_key`, \"Invalid or revoked API key\").\n", headers: { "WWW-Authenticate": wwwAuthenticateHeader }, content: { "application/problem+json": problemSchema }, namedExamples: {"application/problem+json": {"missing": {"value": {"type": "https://docs.partner-platform.example/errors/missing_api_key", "title": "Unauthorized", "status": 401, "detail": "Missing API key", "error": "Missing API key", "code": "missing_api_key"}}, "invalid": {"value": {"type": "https://docs.partner-platform.example/errors/invalid_api_key", "title": "Unauthorized", "status": 401, "detail": "Invalid or revoked API key", "error": "Invalid or revoked API key", "code": "invalid_api_key"}}}} };

export const rateLimitedResponse: ResponseObjectSpec = { id: 'RateLimited', description: "All API keys of the organization together made `RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE` (3000) requests this minute (`rate_limited`); retry after `Retry-After` seconds.", headers: { "Retry-After": { description: "Seconds until the organization's next minute begins.", schema: z.int() } }, content: { "application/problem+json": problemSchema } };

export const publicApiRouteTable = [
  route({
    operationId: 'getCredits',
    method: 'get',
    path: '/api/v1/credits',
    tags: ["Certificates API"],
    security: [{"apiKey": []}],
    responses: {
      200: { headers: { "X-Request-Id": xRequestIdHeader }, content: { "application/json": creditsSchema } },
      401: invalidApiKeyResponse,
      429: rateLimitedResponse,
    },
  }),
  route({
    operationId: 'verifyCertificate',
    method: 'get',
    path: '/api/v1/verify/{code}',
    tags: ["Certificates API"],
    security: [{"apiKey": []}],
    // The length is documented, not enforced here: a longer code is the JSON 404 (`not_found`), as an unknown one.
    params: z.object({ code: z.string().meta({ maxLength: 200 }).meta({ description: "The verification code printed on the certificate, e.g. `ABCDEF-GHJKMN-PQRSTU`." }) }),
    headers: z.object({ "If-None-Match": ifNoneMatchParameter }),
    responses: {
      200: { headers: { "ETag": eTagHeader, "X-Request-Id": xRequestIdHeader }, content: { "application/json": verificationSchema } },
      304: notModifiedResponse,
      401: invalidApiKeyResponse,
      404: { content: { "application/problem+json": verificationNotFoundSchema } },
      429: rateLimitedResponse,
    },
  }),
] as const;
