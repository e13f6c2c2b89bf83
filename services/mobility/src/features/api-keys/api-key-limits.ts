import { ConflictError } from '@platform/service-kit/errors';
import type { Knex } from '@platform/service-kit/db';
import type { ApiKeyService } from '@platform/api-keys';
import { MOBILITY_SCHEMA } from '../../config';

/** How many usable (active, unexpired) keys one partner may hold in each mode. */
export interface ApiKeyCaps {
  live: number;
  test: number;
}

/** 409 `api_key_limit_reached`: the partner already holds as many keys of that mode as it may. */
export class ApiKeyLimitError extends ConflictError {
  constructor(mode: 'live' | 'test', cap: number) {
    super(`Your organization already has ${cap} ${mode} API keys (at most ${cap}); revoke or delete one first`, 'api_key_limit_reached');
  }
}

async function usableKeys(db: Knex, partnerId: string, livemode: boolean): Promise<number> {
  const row = await db
    .withSchema(MOBILITY_SCHEMA)
    .table('api_keys')
    .where({ partner_id: partnerId, livemode, status: 'active' })
    .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))
    .count<{ count: string }>({ count: '*' })
    .first();
  return Number(row?.count ?? 0);
}

/**
 * Caps the keys of each partner and mode (every key brings its own stream allowance). Checked before the
 * insert and again after it, so concurrent creations never leave more than the cap: one that finds itself over the cap
 * after inserting deletes its own row (nobody has seen its token yet) and is refused.
 */
export function withApiKeyCaps(service: ApiKeyService, db: Knex, caps: ApiKeyCaps): ApiKeyService {
  return {
    ...service,
    async create(input) {
      const livemode = input.livemode ?? true;
      const mode = livemode ? 'live' : 'test';
      const cap = livemode ? caps.live : caps.test;
      if ((await usableKeys(db, input.organizationId, livemode)) >= cap) throw new ApiKeyLimitError(mode, cap);
      const created = await service.create(input);
      if ((await usableKeys(db, input.organizationId, livemode)) > cap) {
        await db.withSchema(MOBILITY_SCHEMA).table('api_keys').where({ id: created.id }).delete();
        throw new ApiKeyLimitError(mode, cap);
      }
      return created;
    },
  };
}
