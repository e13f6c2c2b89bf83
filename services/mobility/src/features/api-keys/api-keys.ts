import { createApiKeyService, createKnexApiKeyRepository, type ApiKeyAuthCache, type ApiKeyService } from '@platform/api-keys';
import type { Knex } from '@platform/service-kit';
import { MOBILITY_SCHEMA } from '../../config';

export const MOBILITY_TOKEN_PREFIX = 'mk_';
/** Test-mode keys' tokens (`mk_test_…`): same body and checksum scheme as live ones. */
export const MOBILITY_TEST_TOKEN_PREFIX = 'mk_test_';
export const MOBILITY_SCOPES = ['estimates:read', 'rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage', 'event_passes:write', 'event_passes:read'] as const;
export type Scope = (typeof MOBILITY_SCOPES)[number];

/** Mobility's keys: `mk_` (live) or `mk_test_` (test mode) tokens with scopes, in `mobility.api_keys`, owned by a partner (`partner_id`). */
export function createMobilityApiKeys(db: Knex, cache?: ApiKeyAuthCache): ApiKeyService {
  const repository = createKnexApiKeyRepository(db, {
    schema: MOBILITY_SCHEMA,
    table: 'api_keys',
    organizationColumn: 'partner_id',
    creatorColumn: 'created_by',
    scopesColumn: 'scopes',
    livemodeColumn: 'livemode',
  });
  return createApiKeyService(repository, { tokenPrefix: MOBILITY_TOKEN_PREFIX, testTokenPrefix: MOBILITY_TEST_TOKEN_PREFIX, cache });
}
