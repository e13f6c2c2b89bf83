import { z } from 'zod';
import { apiKeySchema, apiKeyWithTokenSchema, createApiKeyBodySchema, MOBILITY_SCOPES } from '@platform/api-keys';
import { pageSchema } from '@platform/service-kit/pagination';

/** What the api-keys feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

/** The key as both services answer it (`ApiKey`), declared once in `@platform/api-keys`. */
export const apiKeyResponse = apiKeySchema;

/** Mobility's create and rotate answer: an `mk_` token (live or test), and the scopes every mobility key carries. */
export const apiKeyWithTokenResponse = apiKeyWithTokenSchema({
  token: z.string().regex(/^(ck_|mk_|mk_test_)[0-9A-Za-z]{36}$/).regex(/^mk_/).meta({ description: 'The secret token, shown on create and rotate only.' }),
  scopes: apiKeySchema.shape.scopes.unwrap(),
});

export const apiKeyListResponse = pageSchema(apiKeyResponse, { cursorDescription: 'Pass as `cursor` for the next page.' }).meta({ id: 'ApiKeyList' });

/** The create body: every mobility key carries at least one of the mobility scopes, and is live (default) or test mode. */
export const createKeySchema = createApiKeyBodySchema({ scopes: MOBILITY_SCOPES, testMode: true }).meta({
  id: 'NewMobilityApiKey',
  examples: [{ name: 'Production server', scopes: ['estimates:read', 'rides:write'] }, { name: 'Staging (test mode)', scopes: ['rides:write', 'rides:read'], mode: 'test' }],
});
