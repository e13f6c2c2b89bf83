import type { Knex } from '@platform/service-kit';

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  user_id: string;
  name: string;
  token_hint: string;
  status: 'active' | 'revoked';
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = ['id', 'organization_id', 'user_id', 'name', 'token_hint', 'status', 'created_at', 'updated_at', 'last_used_at', 'revoked_at'];

/** Every query names the organization: a key of another organization is simply not found. */
export function apiKeysRepository(db: Knex) {
  return {
    async insert(key: { id: string; organizationId: string; userId: string; name: string; tokenHash: string; tokenHint: string }): Promise<ApiKeyRow> {
      const [row] = await db('api_keys')
        .insert({ id: key.id, organization_id: key.organizationId, user_id: key.userId, name: key.name, token_hash: key.tokenHash, token_hint: key.tokenHint })
        .returning(COLUMNS);
      return row as ApiKeyRow;
    },
    async list(organizationId: string): Promise<ApiKeyRow[]> {
      return db('api_keys').where({ organization_id: organizationId }).orderBy('created_at', 'desc').select(COLUMNS);
    },
    async find(organizationId: string, id: string): Promise<ApiKeyRow | undefined> {
      return db('api_keys').where({ organization_id: organizationId, id }).first(COLUMNS);
    },
    /** Replaces the token of an active key; the old hash stops matching at once. */
    async replaceToken(organizationId: string, id: string, tokenHash: string, tokenHint: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db('api_keys')
        .where({ organization_id: organizationId, id, status: 'active' })
        .update({ token_hash: tokenHash, token_hint: tokenHint, updated_at: db.fn.now() })
        .returning(COLUMNS);
      return row as ApiKeyRow | undefined;
    },
    async revoke(organizationId: string, id: string): Promise<ApiKeyRow | undefined> {
      const [row] = await db('api_keys')
        .where({ organization_id: organizationId, id })
        .update({ status: 'revoked', revoked_at: db.raw('coalesce(revoked_at, now())'), updated_at: db.fn.now() })
        .returning(COLUMNS);
      return row as ApiKeyRow | undefined;
    },
    async remove(organizationId: string, id: string): Promise<boolean> {
      return (await db('api_keys').where({ organization_id: organizationId, id }).delete()) > 0;
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
