import { createApiKeyService, createKnexApiKeyRepository, type ApiKeyAuthCache, type ApiKeyService } from '@platform/api-keys';
import type { Knex } from '@platform/service-kit';
import { MOBILITY_SCHEMA } from '../../config';

export const MOBILITY_TOKEN_PREFIX = 'mk_';
export const MOBILITY_SCOPES = ['estimates:read', 'rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage', 'event_passes:write', 'event_passes:read'] as const;
export type Scope = (typeof MOBILITY_SCOPES)[number];

/** Mobility's keys: `mk_` tokens with scopes, in `mobility.api_keys`, owned by a partner (`partner_id`). */
export function createMobilityApiKeys(db: Knex, cache?: ApiKeyAuthCache): ApiKeyService {
  const repository = createKnexApiKeyRepository(db, {
    schema: MOBILITY_SCHEMA,
    table: 'api_keys',
    organizationColumn: 'partner_id',
    creatorColumn: 'created_by',
    scopesColumn: 'scopes',
  });
  return createApiKeyService(repository, { tokenPrefix: MOBILITY_TOKEN_PREFIX, cache });
}
