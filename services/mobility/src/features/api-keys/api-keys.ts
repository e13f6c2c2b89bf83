import { createApiKeyService, createKnexApiKeyRepository, type ApiKeyAuthCache, type ApiKeyService } from '@platform/api-keys';
import type { Knex } from '@platform/service-kit';
import { MOBILITY_SCHEMA, type MobilityConfig } from '../../config';
import { withApiKeyCaps, type ApiKeyCaps } from './api-key-limits';

export const MOBILITY_TOKEN_PREFIX = 'mk_';
/** Test-mode keys' tokens (`mk_test_…`): same body and checksum scheme as live ones. */
export const MOBILITY_TEST_TOKEN_PREFIX = 'mk_test_';
export const MOBILITY_SCOPES = ['estimates:read', 'rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage', 'event_passes:write', 'event_passes:read'] as const;
export type Scope = (typeof MOBILITY_SCOPES)[number];

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
