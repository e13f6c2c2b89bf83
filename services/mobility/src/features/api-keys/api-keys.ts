import {
  createApiKeyService,
  createKnexApiKeyRepository,
  MOBILITY_SCOPES,
  MOBILITY_TEST_TOKEN_PREFIX,
  MOBILITY_TOKEN_PREFIX,
  type ApiKeyAuthCache,
  type ApiKeyService,
  type MobilityScope,
} from '@platform/api-keys';
import type { Knex } from '@platform/service-kit/db';
import { MOBILITY_SCHEMA, type MobilityConfig } from '../../config';
import { withApiKeyCaps, type ApiKeyCaps } from './api-key-limits';

/** The token prefixes and the scope list live in @platform/api-keys (service-keys.ts), beside the gateway's reading of them. */
export { MOBILITY_SCOPES };
export type Scope = MobilityScope;

/** Mobility's keys (at most `caps` usable ones per partner and mode, see api-key-limits.ts): `mk_` (live) or `mk_test_` (test mode) tokens with scopes, in `mobility.api_keys`, owned by a partner (`partner_id`). */
export function createMobilityApiKeys(db: Knex, caps: ApiKeyCaps, cache?: ApiKeyAuthCache): ApiKeyService {
  const repository = createKnexApiKeyRepository(db, {
    schema: MOBILITY_SCHEMA,
    table: 'api_keys',
    organizationColumn: 'partner_id',
    creatorColumn: 'created_by',
    scopesColumn: 'scopes',
    livemodeColumn: 'livemode',
  });
  const service = createApiKeyService(repository, { tokenPrefix: MOBILITY_TOKEN_PREFIX, testTokenPrefix: MOBILITY_TEST_TOKEN_PREFIX, cache });
  return withApiKeyCaps(service, db, caps);
}

/** The key caps the configuration sets (`API_KEY_MAX_LIVE_PER_PARTNER`, `API_KEY_MAX_TEST_PER_PARTNER`). */
export function apiKeyCapsOf(config: Pick<MobilityConfig, 'API_KEY_MAX_LIVE_PER_PARTNER' | 'API_KEY_MAX_TEST_PER_PARTNER'>): ApiKeyCaps {
  return { live: config.API_KEY_MAX_LIVE_PER_PARTNER, test: config.API_KEY_MAX_TEST_PER_PARTNER };
}
