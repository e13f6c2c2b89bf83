import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { insufficientRoleResponse, invalidAdminTokenResponse, notFoundResponse, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { didDocumentSchema } from './credentials.contract';

export const issuerSchema = z.object({
  did: z.string().regex(/^did:web:/).meta({ description: "The organization's own issuer DID: `did:web:{platform host}:issuers:{organization id}`." }),
  did_document_url: z.url().meta({ description: 'Where did:web resolves it: `{PUBLIC_BASE_URL}/issuers/{organization id}/did.json`.' }),
  name: z.string(),
  keys: z.array(z.object({
    id: z.string().meta({ description: 'The key id (`kid` of the JWTs): `{did}#{JWK thumbprint}`.' }),
    created_at: z.iso.datetime({ offset: true }),
    retired_at: z.iso.datetime({ offset: true }).nullable().meta({ description: 'When a rotation replaced it; it stays in the DID document, so what it signed keeps verifying.' }),
    current: z.boolean().meta({ description: 'The key new credentials are signed with.' }),
  })).meta({ description: 'Every key the organization ever signed with, oldest first; empty until its first credential is signed.' }),
  domain: z.string().nullable().meta({ description: "The proved domain: credentials name `https://{domain}` as the issuer's `url`." }),
  domain_verified_at: z.iso.datetime({ offset: true }).nullable(),
  identity: z.string().meta({ description: 'What credential pages, documents and the verifier say beside the name.', examples: ['verified domain academy.example.org', 'issuer identity not verified'] }),
  pending_domain: z.object({
    domain: z.string(),
    token: z.string(),
    proof_url: z.url(),
    started_at: z.iso.datetime({ offset: true }),
  }).nullable().meta({ description: 'A domain verification started and not yet checked successfully.' }),
}).meta({ id: 'Issuer' });

export const domainVerificationRequestSchema = z.strictObject({
  domain: z.string().min(1).max(260).meta({ description: 'The domain to prove, such as `academy.example.org`.', examples: ['academy.example.org'] }),
}).meta({ id: 'DomainVerificationRequest', examples: [{ domain: 'academy.example.org' }] });

export const domainVerificationSchema = z.object({
  domain: z.string(),
  token: z.string().meta({ description: 'Serve it as a line of the proof file.' }),
  proof_url: z.url().meta({ description: 'Exactly where the platform reads the proof: `https://{domain}/.well-known/partner-platform-issuer.txt`.' }),
  instructions: z.string(),
}).meta({ id: 'DomainVerification' });

const domainCheckFailedResponse = {
  id: 'DomainCheckFailed',
  description: 'The proof was not found: the domain resolves to a loopback, private or reserved address or does not resolve (`domain_refused`), the file could not be read (`domain_unreachable`), or it does not hold the token (`domain_proof_mismatch`). Nothing changed.',
  content: { 'application/problem+json': problemSchema },
};

export const issuersRouteTable = [
  route({
    operationId: 'getOrganizationDidDocument',
    method: 'get',
    path: '/issuers/{organization}/did.json',
    tags: ['Public credentials'],
    security: [],
    params: z.object({ organization: z.string().meta({ description: 'The organization id.' }) }),
    responses: {
      200: { content: { 'application/did+json': didDocumentSchema } },
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'getIssuer',
    method: 'get',
    path: '/admin/v1/issuer',
    tags: ['Admin issuer'],
    security: [{ adminJwt: [] }],
    responses: {
      200: issuerSchema,
      401: invalidAdminTokenResponse,
    },
  }),
  route({
    operationId: 'rotateIssuerKey',
    method: 'post',
    path: '/admin/v1/issuer/keys/rotate',
    tags: ['Admin issuer'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    audit: 'issuer.key_rotated',
    responses: {
      200: issuerSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
    },
  }),
  route({
    operationId: 'startIssuerDomainVerification',
    method: 'post',
    path: '/admin/v1/issuer/domain-verification',
    tags: ['Admin issuer'],
    security: [{ adminJwt: [] }],
    body: domainVerificationRequestSchema,
    roles: ['owner'],
    audit: 'issuer.domain_verification_started',
    responses: {
      201: domainVerificationSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'checkIssuerDomainVerification',
    method: 'post',
    path: '/admin/v1/issuer/domain-verification/check',
    tags: ['Admin issuer'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    audit: 'issuer.domain_verified',
    responses: {
      200: issuerSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      409: { content: { 'application/problem+json': problemSchema } },
      422: domainCheckFailedResponse,
    },
  }),
] as const;
