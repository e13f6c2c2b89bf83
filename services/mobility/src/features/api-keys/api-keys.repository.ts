import type { Knex } from '@platform/service-kit';

export type ApiKeyStatus = 'active' | 'revoked';

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  name: string;
  scopes: string[];
  tokenHint: string;
  status: ApiKeyStatus;
  createdBy: string;
  createdAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiKey {
  id: string;
  organizationId: string;
  name: string;
  scopes: string[];
  tokenHash: string;
  tokenHint: string;
  createdBy: string;
}

/**
 * Storage of API keys, free of HTTP and of any one service's tables beyond `api_keys`, so the certificate service
 * can reuse the same service on its own table.
 */
export interface ApiKeyRepository {
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  listByOrganization(organizationId: string): Promise<ApiKeyRecord[]>;
  findInOrganization(organizationId: string, id: string): Promise<ApiKeyRecord | undefined>;
  findActiveByHash(tokenHash: string): Promise<ApiKeyRecord | undefined>;
  /** Replaces the token of an active key; undefined when the key is not active (anymore). */
  replaceToken(id: string, tokenHash: string, tokenHint: string): Promise<ApiKeyRecord | undefined>;
  revoke(id: string): Promise<ApiKeyRecord | undefined>;
  remove(id: string): Promise<boolean>;
}

interface ApiKeyRow {
  id: string;
  partner_id: string;
  name: string;
  scopes: string[];
  token_hint: string;
  status: ApiKeyStatus;
  created_by: string;
  created_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = ['id', 'partner_id', 'name', 'scopes', 'token_hint', 'status', 'created_by', 'created_at', 'rotated_at', 'revoked_at'];

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    organizationId: row.partner_id,
    name: row.name,
    scopes: row.scopes,
    tokenHint: row.token_hint,
    status: row.status,
    createdBy: row.created_by,
    createdAt: row.created_at,
    rotatedAt: row.rotated_at,
    revokedAt: row.revoked_at,
  };
}

export function createKnexApiKeyRepository(db: Knex, table = 'api_keys'): ApiKeyRepository {
  const one = (rows: ApiKeyRow[]) => (rows[0] ? toRecord(rows[0]) : undefined);
  return {
    async insert(key) {
      const rows: ApiKeyRow[] = await db(table)
        .insert({
          id: key.id,
          partner_id: key.organizationId,
          name: key.name,
          scopes: key.scopes,
          token_hash: key.tokenHash,
          token_hint: key.tokenHint,
          created_by: key.createdBy,
        })
        .returning(COLUMNS);
      return toRecord(rows[0]!);
    },
    async listByOrganization(organizationId) {
      const rows: ApiKeyRow[] = await db(table).select(COLUMNS).where({ partner_id: organizationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]);
      return rows.map(toRecord);
    },
    async findInOrganization(organizationId, id) {
      return one(await db(table).select(COLUMNS).where({ partner_id: organizationId, id }));
    },
    async findActiveByHash(tokenHash) {
      return one(await db(table).select(COLUMNS).where({ token_hash: tokenHash, status: 'active' }));
    },
    async replaceToken(id, tokenHash, tokenHint) {
      return one(
        await db(table).where({ id, status: 'active' }).update({ token_hash: tokenHash, token_hint: tokenHint, rotated_at: db.fn.now() }).returning(COLUMNS),
      );
    },
    async revoke(id) {
      const rows: ApiKeyRow[] = await db(table)
        .where({ id })
        .update({ status: 'revoked', revoked_at: db.raw('coalesce(revoked_at, now())') })
        .returning(COLUMNS);
      return one(rows);
    },
    async remove(id) {
      return (await db(table).where({ id }).delete()) > 0;
    },
  };
}
