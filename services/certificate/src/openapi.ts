import path from 'node:path';
import { auditLogQuerySchema, buildOpenApiDocument, type OpenApiDocument } from '@platform/service-kit';
import { apiKeyListQuerySchema, rotateApiKeySchema } from '@platform/api-keys';
import { emailTokenSchema, memberPatchSchema, newInvitationSchema, newOrganizationSchema, passwordResetConfirmSchema, passwordResetSchema, refreshSchema, signInSchema, signUpSchema } from './features/accounts/accounts.schema';
import { newApiKeySchema } from './features/api-keys/api-keys.routes';
import { listQuery } from './features/certificates/certificates.routes';
import { verifyRequestSchema } from './features/credentials/credentials.routes';
import { ledgerQuery } from './features/credits/credits.routes';
import { summaryQuery } from './features/summary/summary.routes';
import { batchSchema, newCertificateSchema } from './features/certificates/certificates.schema';
import { documentQuery } from './features/documents/documents.routes';
import { checkoutBody, topUpBody } from './features/payments/payments.routes';
import { newTemplateSchema, templateListQuery, templatePatchSchema, templateVersionListQuery } from './features/templates/templates.schema';

/** The hand-written part of the description (operations, responses, prose), kept as source beside `src/`. */
export const OPENAPI_FILE = path.join(__dirname, '..', 'openapi.yaml');

/** Request bodies and queries: the zod schemas the routes validate with are their only description. */
export const REQUEST_SCHEMAS = {
  bodies: [signUpSchema, emailTokenSchema, passwordResetSchema, passwordResetConfirmSchema, signInSchema, refreshSchema, newOrganizationSchema, memberPatchSchema, newInvitationSchema, newApiKeySchema, rotateApiKeySchema, newCertificateSchema, batchSchema, checkoutBody, topUpBody, newTemplateSchema, templatePatchSchema, verifyRequestSchema],
  queries: [auditLogQuerySchema, listQuery, apiKeyListQuerySchema, templateListQuery, templateVersionListQuery, documentQuery, ledgerQuery, summaryQuery],
};

let cached: OpenApiDocument | undefined;

/** The complete description served at `GET /openapi.json`, built once per process. */
export function certificateOpenApi(): OpenApiDocument {
  cached ??= buildOpenApiDocument(OPENAPI_FILE, REQUEST_SCHEMAS);
  return structuredClone(cached);
}
