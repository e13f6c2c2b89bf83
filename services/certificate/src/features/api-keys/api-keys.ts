import type { RequestHandler } from 'express';
import { CERTIFICATE_TEST_TOKEN_PREFIX, CERTIFICATE_TOKEN_PREFIX, createApiKeyService, createKnexApiKeyRepository, requireApiKey as sharedRequireApiKey, type ApiKeyAuthCache, type ApiKeyService } from '@platform/api-keys';
import type { Knex } from '@platform/service-kit/db';
import type { MinuteBudget } from '@platform/service-kit/minute-budget';
import { CERTIFICATE_SCHEMA } from '../../config';

/** Certificate's keys: `ck_` (live) or `ck_test_` (test mode) tokens without scopes, in `certificate.api_keys`, owned by an organization and a user. */
export function createCertificateApiKeys(db: Knex, cache?: ApiKeyAuthCache): ApiKeyService {
  const repository = createKnexApiKeyRepository(db, {
    schema: CERTIFICATE_SCHEMA,
    table: 'api_keys',
    organizationColumn: 'organization_id',
    creatorColumn: 'user_id',
    livemodeColumn: 'livemode',
  });
  return createApiKeyService(repository, { tokenPrefix: CERTIFICATE_TOKEN_PREFIX, testTokenPrefix: CERTIFICATE_TEST_TOKEN_PREFIX, cache });
}

/** Public API authentication: `Authorization: Bearer <token>` only; an accepted key spends its organization's budget. */
export function requireApiKey(service: ApiKeyService, organizations?: MinuteBudget): RequestHandler {
  return sharedRequireApiKey((token) => service.authenticate(token), { acceptXApiKeyHeader: false, organizations });
}
