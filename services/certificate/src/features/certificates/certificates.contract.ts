import { z } from 'zod';
import { route, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { certificateIdParameter, certificateStatusSchema, invalidAdminTokenResponse, notFoundResponse, payloadTooLargeResponse, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { adminModeQuery } from '../../platform/admin-mode';
import { listQuery } from './certificates.schema';
import { batchSchema, newCertificateSchema } from './certificates.schema';
import { pageSchema } from '@platform/service-kit/pagination';

export const certificateDeliverySchema = z.object({
  status: z.enum(['pending', 'sent', 'failed', 'bounced']).meta({ description: "`pending` until the SMTP server took the mail (`sent`) or refused it: `bounced` for a 5xx refusal (the address or its server refuses it), `failed` otherwise (the server could not be reached or answered 4xx)." }),
  last_error: z.string().nullable().meta({ description: "The SMTP server's answer to the last failed attempt (`550 5.1.1 …`); null once a mail is sent." }),
  sent_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "When the SMTP server last took the mail." }),
}).meta({ id: "CertificateDelivery", description: "The recipient mail's delivery." });

export const certificateSchema = z.object({
  id: z.string().regex(/^cert_/),
  verification_code: z.string().regex(/^[2-9A-HJ-NP-Z]{6}-[2-9A-HJ-NP-Z]{6}-[2-9A-HJ-NP-Z]{6}$/).meta({ examples: ["ABCDEF-GHJKMN-PQRSTU"] }),
  certificate_number: z.string(),
  recipient_name: z.string(),
  program_title: z.string(),
  issue_date: z.iso.date(),
  expires_on: z.iso.date().nullable(),
  status: certificateStatusSchema,
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  revoked_at: z.iso.datetime({ offset: true }).nullable(),
  template_id: z.string().nullable().meta({ description: "The template it was issued with; null for the built-in layout." }),
  template_version: z.int().nullable().meta({ description: "The template version it keeps for good." }),
  custom_fields: z.record(z.string(), z.string()).meta({ description: "The values of the template's custom fields." }),
  livemode: z.boolean().meta({ description: "False for a test certificate (issued with `?mode=test`): it spent no credit, its page and document say TEST, and it verifies as `test`, never `valid`." }),
  recipient_email: z.string().nullable().meta({ description: "The address the recipient is mailed at; null when issued without one." }),
  delivery: certificateDeliverySchema.nullable().meta({ description: "The recipient mail's delivery; null without a `recipient_email`." }),
}).meta({ id: "Certificate" });

export const certificateListSchema = pageSchema(certificateSchema, { cursorDescription: "Pass as `cursor` for the next page (`starting_after` is an alias)." }).meta({ id: "CertificateList" });

export const insufficientCreditsResponse: ResponseObjectSpec = { id: 'InsufficientCredits', description: "The balance cannot pay for every certificate asked for (`insufficient_credits`); nothing is issued.", content: { "application/problem+json": problemSchema }, examples: {"application/problem+json": {"type": "https://docs.partner-platform.example/errors/insufficient_credits", "title": "Payment Required", "status": 402, "detail": "Insufficient certificate credits", "error": "Insufficient certificate credits", "code": "insufficient_credits"}} };

export const certificateNumberTakenResponse: ResponseObjectSpec = { id: 'CertificateNumberTaken', description: "A certificate of the organization already has this `certificate_number` (`certificate_number_taken`); nothing is spent.", content: { "application/problem+json": problemSchema } };

/** What every certificate operation shares: its tag and the admin JWT. */
const adminCertificates = { tags: ["Admin certificates"], security: [{"adminJwt": []}] };

/** What the operations on one certificate share: the admin tag and JWT, the certificate's id, and the mode asked for. */
const oneCertificate = { ...adminCertificates, params: z.object({ id: certificateIdParameter }), query: adminModeQuery };

/** How issuing is refused for the organization: credits run out, or a `certificate_number` already taken. */
const issueRefused = { 402: insufficientCreditsResponse, 409: certificateNumberTakenResponse };

export const cannotResendResponse: ResponseObjectSpec = { id: 'CannotResend', description: "The certificate has no `recipient_email` (`no_recipient_email`) or is revoked (`certificate_revoked`); nothing is sent.", content: { "application/problem+json": problemSchema } };

/** How a call on one certificate is refused: no usable admin JWT, or no such certificate of the organization. */
const oneCertificateRefused = { 401: invalidAdminTokenResponse, 404: notFoundResponse };

export const certificatesRouteTable = [
  route({
    operationId: 'issueCertificate',
    method: 'post',
    path: '/admin/v1/certificates',
    ...adminCertificates,
    query: adminModeQuery,
    body: newCertificateSchema,
    audit: 'certificate.issued',
    responses: {
      201: certificateSchema,
      401: invalidAdminTokenResponse,
      ...issueRefused,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'listCertificates',
    method: 'get',
    path: '/admin/v1/certificates',
    ...adminCertificates,
    query: listQuery,
    responses: {
      200: certificateListSchema,
      401: invalidAdminTokenResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'issueCertificateBatch',
    method: 'post',
    path: '/admin/v1/certificates/batch',
    ...adminCertificates,
    query: adminModeQuery,
    body: { "application/json": batchSchema, "text/csv": z.string() },
    bodyLimit: '5mb',
    cost: 'bulk',
    audit: 'certificate.batch_issued',
    responses: {
      201: certificateListSchema,
      401: invalidAdminTokenResponse,
      ...issueRefused,
      413: payloadTooLargeResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'getCertificate',
    method: 'get',
    path: '/admin/v1/certificates/{id}',
    ...oneCertificate,
    responses: {
      200: certificateSchema,
      ...oneCertificateRefused,
    },
  }),
  route({
    operationId: 'revokeCertificate',
    method: 'post',
    path: '/admin/v1/certificates/{id}/revoke',
    ...oneCertificate,
    audit: 'certificate.revoked',
    responses: {
      200: certificateSchema,
      ...oneCertificateRefused,
    },
  }),
  route({
    operationId: 'resendCertificateMail',
    method: 'post',
    path: '/admin/v1/certificates/{id}/resend',
    ...oneCertificate,
    cost: 'mail',
    audit: 'certificate.mail_resent',
    responses: {
      200: certificateSchema,
      ...oneCertificateRefused,
      409: cannotResendResponse,
    },
  }),
] as const;
