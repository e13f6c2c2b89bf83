import { z } from 'zod';
import { route, type ResponseObjectSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { documentCacheControlHeader, documentETagHeader, documentRendersBusyResponse, notFoundResponse, payloadTooLargeResponse, unsupportedMediaTypeResponse, validationFailedResponse, verificationCodeParameter, verifiedStatusSchema, xRequestIdHeader } from '../../http-contract';
import { verifyRequestSchema } from './credentials.schema';

export const publicCredentialSchema = z.object({
  verification_code: z.string().meta({ examples: ["ABCDEF-GHJKMN-PQRSTU"] }),
  status: verifiedStatusSchema,
  valid: z.boolean().meta({ description: "True only when `status` is `valid`." }),
  recipient_name: z.string(),
  program_title: z.string(),
  organization_name: z.string(),
  issuer_name: z.string().meta({ description: "The issuer the certificate names, as its document and its verifiable credential do: the template's issuer name, else `organization_name`." }),
  issuer_verified: z.boolean().meta({ description: "Whether an operator verified the issuer's name (`cli organizations verify`); false: the name is what the issuer entered." }),
  issuer_domain: z.string().nullable().meta({ description: "The domain the issuer proved it controls (its credentials' `issuer.url`); null: its identity is not verified." }),
  issuer_identity: z.string().meta({ description: "What the page says beside the issuer's name.", examples: ["verified domain academy.example.org", "issuer identity not verified"] }),
  issue_date: z.iso.date(),
  issue_date_text: z.string().meta({ description: "`issue_date` as the document writes it (the template's date format).", examples: ["26 November 2026"] }),
  expires_on: z.iso.date().nullable(),
  expires_on_text: z.string().nullable().meta({ description: "`expires_on` in the same date format." }),
  certificate_number: z.string(),
  revoked_at: z.iso.datetime({ offset: true }).nullable(),
  revoked_on_text: z.string().nullable().meta({ description: "The day of `revoked_at` (UTC) in the document's date format." }),
  page_url: z.url().meta({ description: "This page, on `PUBLIC_BASE_URL`." }),
  document: z.object({
    pdf_url: z.url(),
    png_url: z.url(),
  }),
}).meta({ id: "PublicCredential" });

export const envelopedCredentialSchema = z.object({
  "@context": z.array(z.string()),
  id: z.string().regex(/^data:application\/vc\+jwt,/),
  type: z.literal("EnvelopedVerifiableCredential"),
}).meta({ id: "EnvelopedCredential", description: "A VC 2.0 `EnvelopedVerifiableCredential`; `id` is the signed credential as a `data:application/vc+jwt,` URL." });

export const dataIntegrityProofSchema = z.looseObject({
  type: z.literal("DataIntegrityProof"),
  cryptosuite: z.literal("eddsa-rdfc-2022"),
  created: z.iso.datetime({ offset: true }),
  verificationMethod: z.string().meta({ description: "The Multikey of the issuer's DID document that made the proof: `{did}#{publicKeyMultibase}`." }),
  proofPurpose: z.literal("assertionMethod"),
  proofValue: z.string().regex(/^z[1-9A-HJ-NP-Za-km-z]+$/).meta({ description: "The Ed25519 signature, multibase base58btc." }),
}).meta({ id: "DataIntegrityProof", description: "A W3C Data Integrity proof (`eddsa-rdfc-2022`) over the RDF canonical form of the credential." });

export const credentialWithProofSchema = z.looseObject({
  "@context": z.array(z.string()),
  id: z.url(),
  type: z.array(z.string()),
  issuer: z.union([z.string(), z.looseObject({ id: z.string() })]),
  validFrom: z.iso.datetime({ offset: true }),
  credentialSubject: z.looseObject({}),
  proof: dataIntegrityProofSchema,
}).meta({ id: "CredentialWithProof", description: "A VC 2.0 credential in its JSON-LD form (an Open Badges 3.0 `OpenBadgeCredential`, or a `BitstringStatusListCredential`), secured by its embedded Data Integrity proof." });

export const credentialVerificationSchema = z.object({
  status: z.enum(["valid", "revoked", "expired", "test", "tampered", "unknown"]).meta({ description: "`test`: the code names a test certificate (issued in test mode), not a real credential." }),
  valid: z.boolean().meta({ description: "True only when `status` is `valid`." }),
  reason: z.string().meta({ description: "The outcome in words for a person." }),
  credential: z.object({
    id: z.url(),
    recipient_name: z.string().nullable(),
    achievement: z.string().nullable(),
    issuer_name: z.string().nullable(),
    issuer_identity: z.string().meta({ description: "Beside the issuer's name: `verified domain {domain}` when the issuer proved a domain, else `issuer identity not verified`." }),
    valid_from: z.iso.datetime({ offset: true }).nullable(),
    valid_until: z.iso.datetime({ offset: true }).nullable(),
  }).nullable().meta({ description: "What the verified credential (or the certificate of the code) says; null when nothing could be trusted." }),
}).meta({ id: "CredentialVerification" });

export const publicJwkSchema = z.object({
  kty: z.literal("OKP"),
  crv: z.literal("Ed25519"),
  x: z.string(),
  kid: z.string().optional(),
  alg: z.literal("EdDSA").optional(),
  use: z.literal("sig").optional(),
}).meta({ id: "PublicJwk" });

export const didDocumentSchema = z.object({
  "@context": z.array(z.string()),
  id: z.string().regex(/^did:web:/),
  verificationMethod: z.array(z.union([
    z.object({
      id: z.string(),
      type: z.literal("JsonWebKey2020"),
      controller: z.string(),
      publicKeyJwk: publicJwkSchema,
    }),
    z.object({
      id: z.string(),
      type: z.literal("Multikey"),
      controller: z.string(),
      publicKeyMultibase: z.string().regex(/^z6Mk/).meta({ description: "The same Ed25519 public key, multibase base58btc of the ed25519-pub multicodec." }),
    }),
  ])).meta({ description: "The issuer's Ed25519 key, as a JsonWebKey2020 (the `kid` of the JWTs) and as a Multikey (the `verificationMethod` of the Data Integrity proofs)." }),
  assertionMethod: z.array(z.string()),
}).meta({ id: "DidDocument" });

export const documentRenderingResponse: ResponseObjectSpec = { id: 'DocumentRendering', description: "The document is being rendered and was not ready within `DOCUMENT_RENDER_WAIT_MS`; ask again after `Retry-After`\nseconds (the render goes on meanwhile and is stored). `Cache-Control: no-store`.\n", headers: { "Retry-After": { description: "Seconds to wait before asking again (1 to 30, from the place of the organization's renders in the render queue, which serves organizations in turn).", schema: z.int() } }, content: { "application/json": z.strictObject({
  status: z.literal("rendering"),
  retry_after: z.int().min(1).meta({ description: "The same number of seconds as `Retry-After`." }),
}) }, examples: {"application/json": {"status": "rendering", "retry_after": 2}} };

export const documentNotModifiedResponse: ResponseObjectSpec = { id: 'DocumentNotModified', description: "`If-None-Match` named the current document's `ETag`: the copy held is still right." };

export const credentialsRouteTable = [
  route({
    operationId: 'getPublicCredential',
    method: 'get',
    path: '/credentials/{code}',
    tags: ["Public credentials"],
    security: [],
    params: z.object({ code: verificationCodeParameter }),
    responses: {
      200: { headers: { "X-Request-Id": xRequestIdHeader }, content: { "application/json": publicCredentialSchema, "text/html": z.string(), "application/vc+jwt": z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/).meta({ description: "The signed Open Badges 3.0 credential (compact JWS, `typ` `vc+jwt`, EdDSA)." }), "application/vc+ld+json": credentialWithProofSchema } },
      404: { content: { "application/problem+json": problemSchema, "text/html": z.string() } },
    },
  }),
  route({
    operationId: 'getPublicCredentialPdf',
    method: 'get',
    path: '/credentials/{code}/document.pdf',
    tags: ["Public credentials"],
    security: [],
    params: z.object({ code: verificationCodeParameter }),
    responses: {
      200: { headers: { "ETag": documentETagHeader, "Cache-Control": documentCacheControlHeader }, content: { "application/pdf": null } },
      202: documentRenderingResponse,
      304: documentNotModifiedResponse,
      404: notFoundResponse,
      503: documentRendersBusyResponse,
    },
  }),
  route({
    operationId: 'getPublicCredentialPng',
    method: 'get',
    path: '/credentials/{code}/document.png',
    tags: ["Public credentials"],
    security: [],
    params: z.object({ code: verificationCodeParameter }),
    responses: {
      200: { headers: { "ETag": documentETagHeader, "Cache-Control": documentCacheControlHeader }, content: { "image/png": null } },
      202: documentRenderingResponse,
      304: documentNotModifiedResponse,
      404: notFoundResponse,
      503: documentRendersBusyResponse,
    },
  }),
  route({
    operationId: 'getPublicCredentialLogo',
    method: 'get',
    path: '/credentials/{code}/logo',
    tags: ["Public credentials"],
    security: [],
    params: z.object({ code: verificationCodeParameter }),
    responses: {
      200: { content: { "image/png": null, "image/jpeg": null } },
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'getPublicCredentialBadge',
    method: 'get',
    path: '/credentials/{code}/badge.png',
    tags: ["Public credentials"],
    security: [],
    params: z.object({ code: verificationCodeParameter }),
    responses: {
      200: { headers: { "ETag": { description: "A strong validator of the badge's bytes. Send it back in `If-None-Match` for a 304.", schema: z.string() }, "Cache-Control": { description: "`public, max-age=86400`: a certificate's badge does not change.", schema: z.string() } }, content: { "image/png": null } },
      304: documentNotModifiedResponse,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'getVerifiableCredential',
    method: 'get',
    path: '/credentials/{code}/credential.json',
    tags: ["Public credentials"],
    security: [],
    params: z.object({ code: verificationCodeParameter }),
    responses: {
      200: { headers: { "Content-Disposition": { schema: z.string() } }, content: { "application/vc+ld+json": credentialWithProofSchema } },
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'getCredentialStatusList',
    method: 'get',
    path: '/credentials/status/{list}',
    tags: ["Public credentials"],
    security: [],
    // The pattern is documented, not enforced here: any other list is a 404 (`not_found`), as an unknown one.
    params: z.object({ list: z.string().meta({ pattern: '^[1-9][0-9]*$' }) }),
    responses: {
      200: { content: { "application/vc+jwt": z.string(), "application/vc+ld+json": credentialWithProofSchema } },
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'getCredentialVerifierPage',
    method: 'get',
    path: '/credentials/verify',
    tags: ["Public credentials"],
    security: [],
    responses: {
      200: { content: { "text/html": z.string() } },
    },
  }),
  route({
    operationId: 'verifyCredential',
    method: 'post',
    path: '/credentials/verify',
    tags: ["Public credentials"],
    security: [],
    body: { "application/json": verifyRequestSchema, "application/vc+jwt": z.string(), "application/vc+ld+json": z.union([credentialWithProofSchema, envelopedCredentialSchema]) },
    responses: {
      200: credentialVerificationSchema,
      400: { content: { "application/problem+json": problemSchema } },
      413: payloadTooLargeResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'getCredentialPageScript',
    method: 'get',
    path: '/credentials/assets/credentials.js',
    tags: ["Public credentials"],
    security: [],
    responses: {
      200: { content: { "text/javascript": z.string() } },
    },
  }),
  route({
    operationId: 'getIssuerDidDocument',
    method: 'get',
    path: '/.well-known/did.json',
    tags: ["Public credentials"],
    security: [],
    responses: {
      200: { content: { "application/did+json": didDocumentSchema } },
    },
  }),
  route({
    operationId: 'getIssuerJwks',
    method: 'get',
    path: '/.well-known/jwks.json',
    tags: ["Public credentials"],
    security: [],
    responses: {
      200: { content: { "application/jwk-set+json": z.object({
  keys: z.array(publicJwkSchema),
}) } },
    },
  }),
] as const;
