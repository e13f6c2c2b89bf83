import type { Knex } from '@platform/service-kit/db';

export type ApiKeyStatus = 'active' | 'revoked';

/** Where a service keeps its keys: each service has its own table in its own schema, with its own column names. */
export interface ApiKeyTable {
  table: string;
  /** The Postgres schema of the table; the connection's search path when omitted. */
  schema?: string;
  /** The column holding the owning organization (`organization_id`, mobility's `partner_id`). */
  organizationColumn: string;
  /** The column holding the user who created the key (`user_id`, mobility's `created_by`). */
  creatorColumn: string;
  /** The `text[]` column of scopes, for services whose keys carry scopes. */
  scopesColumn?: string;
  /** The boolean column telling live keys (true) from test-mode keys (false), for services with a test mode. */
  livemodeColumn?: string;
}

export interface ApiKeyRecord {
  id: string;
  organizationId: string;
  createdBy: string;
  name: string;
  scopes: string[] | undefined;
  /** false for a test-mode key; undefined where the service has no test mode. */
  livemode: boolean | undefined;
  tokenHint: string;
  status: ApiKeyStatus;
  createdAt: Date;
  updatedAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** Until when the token replaced by the last rotation still works; null when it stopped at once. */
  previousTokenExpiresAt: Date | null;
}

export interface NewApiKey {
  id: string;
  organizationId: string;
  createdBy: string;
  name: string;
  scopes?: string[];
  /** false: a test-mode key (only where the table has a livemode column). */
  livemode?: boolean;
  tokenHash: string;
  tokenHint: string;
  expiresAt?: Date;
}

/** Every lookup by id names the organization: a key of another organization is simply not found. */
export interface ApiKeyRepository {
  readonly hasScopes: boolean;
  readonly hasLivemode: boolean;
  insert(key: NewApiKey): Promise<ApiKeyRecord>;
  /** Newest first; `afterId` is the last key of the previous page. Reads `limit + 1` rows so the caller knows if more follow. */
  page(organizationId: string, limit: number, afterId?: string): Promise<ApiKeyRecord[]>;
  findInOrganization(organizationId: string, id: string): Promise<ApiKeyRecord | undefined>;
  /** The active, unexpired key whose current token, or previous token within its grace period, has this hash. */
  findUsableByHash(tokenHash: string): Promise<ApiKeyRecord | undefined>;
  /** Replaces the token of an active key; the old one keeps working for `graceSeconds` (0: stops at once). */
  replaceToken(organizationId: string, id: string, token: { hash: string; hint: string }, graceSeconds: number): Promise<ApiKeyRecord | undefined>;
  revoke(organizationId: string, id: string): Promise<ApiKeyRecord | undefined>;
  remove(organizationId: string, id: string): Promise<boolean>;
  /** Sets `last_used_at` unless it was written less than a minute ago; true when a row changed. */
  touchLastUsed(id: string): Promise<boolean>;
}

type Row = Record<string, unknown>;

/** How one service's key table holds a key: the columns read back, a row read as a record, a new key written as a row. */
function tableShape({ organizationColumn: orgColumn, creatorColumn, scopesColumn, livemodeColumn }: ApiKeyTable) {
  const columns = [
    'id', orgColumn, creatorColumn, 'name', 'token_hint', 'status', 'created_at', 'updated_at', 'rotated_at', 'revoked_at',
    'last_used_at', 'expires_at', 'previous_token_expires_at', ...(scopesColumn ? [scopesColumn] : []),
    ...(livemodeColumn ? [livemodeColumn] : []),
  ];
  const toRecord = (row: Row): ApiKeyRecord => ({
    id: row.id as string,
    organizationId: row[orgColumn] as string,
    createdBy: row[creatorColumn] as string,
    name: row.name as string,
    scopes: scopesColumn ? (row[scopesColumn] as string[]) : undefined,
    livemode: livemodeColumn ? (row[livemodeColumn] as boolean) : undefined,
    tokenHint: row.token_hint as string,
    status: row.status as ApiKeyStatus,
    createdAt: row.created_at as Date,
    updatedAt: row.updated_at as Date,
    rotatedAt: row.rotated_at as Date | null,
    revokedAt: row.revoked_at as Date | null,
    lastUsedAt: row.last_used_at as Date | null,
    expiresAt: row.expires_at as Date | null,
    previousTokenExpiresAt: row.previous_token_expires_at as Date | null,
  });
  const toRow = (key: NewApiKey): Row => ({
    id: key.id,
    [orgColumn]: key.organizationId,
    [creatorColumn]: key.createdBy,
    name: key.name,
    ...(scopesColumn ? { [scopesColumn]: key.scopes ?? [] } : {}),
    ...(livemodeColumn ? { [livemodeColumn]: key.livemode ?? true } : {}),
    token_hash: key.tokenHash,
    token_hint: key.tokenHint,
    expires_at: key.expiresAt ?? null,
  });
  return { columns, toRecord, toRow };
}

export function createKnexApiKeyRepository(db: Knex, where: ApiKeyTable): ApiKeyRepository {
  const { organizationColumn: orgColumn, scopesColumn, livemodeColumn } = where;
  const table = () => (where.schema ? db.withSchema(where.schema).table(where.table) : db.table(where.table));
  const { columns, toRecord, toRow } = tableShape(where);
  const first = (rows: Row[]) => (rows[0] ? toRecord(rows[0]) : undefined);

  return {
    hasScopes: scopesColumn !== undefined,
    hasLivemode: livemodeColumn !== undefined,
    async insert(key) {
      const rows: Row[] = await table().insert(toRow(key)).returning(columns);
      return toRecord(rows[0]!);
    },
    async page(organizationId, limit, afterId) {
      const query = table().select(columns).where(orgColumn, organizationId);
      if (afterId) {
        // Row-value comparison on the stored values: exact to the microsecond, stable among keys created together.
        query.whereRaw('(created_at, id) < (select created_at, id from ?? where ?? = ? and id = ?)', [
          where.schema ? `${where.schema}.${where.table}` : where.table,
          orgColumn,
          organizationId,
          afterId,
        ]);
      }
      const rows: Row[] = await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
      return rows.map(toRecord);
    },
    async findInOrganization(organizationId, id) {
      return first(await table().select(columns).where({ [orgColumn]: organizationId, id }));
    },
    async findUsableByHash(tokenHash) {
      return first(
        await table()
          .select(columns)
          .where({ status: 'active' })
          .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', db.fn.now()))
          .andWhere((q) =>
            q.where({ token_hash: tokenHash }).orWhere((p) => p.where({ previous_token_hash: tokenHash }).andWhere('previous_token_expires_at', '>', db.fn.now())),
          )
          .limit(1),
      );
    },
    async replaceToken(organizationId, id, token, graceSeconds) {
      const grace = graceSeconds > 0;
      return first(
        await table()
          .where({ [orgColumn]: organizationId, id, status: 'active' })
          .update({
            token_hash: token.hash,
            token_hint: token.hint,
            // SET reads the row as it was: the previous hash is the token being replaced.
            previous_token_hash: grace ? db.ref('token_hash') : null,
            previous_token_expires_at: grace ? db.raw('now() + make_interval(secs => ?)', [graceSeconds]) : null,
            rotated_at: db.fn.now(),
            updated_at: db.fn.now(),
          })
          .returning(columns),
      );
    },
    async revoke(organizationId, id) {
      return first(
        await table()
          .where({ [orgColumn]: organizationId, id })
          .update({
            status: 'revoked',
            revoked_at: db.raw('coalesce(revoked_at, now())'),
            previous_token_hash: null,
            previous_token_expires_at: null,
            updated_at: db.fn.now(),
          })
          .returning(columns),
      );
    },
    async remove(organizationId, id) {
      return (await table().where({ [orgColumn]: organizationId, id }).delete()) > 0;
    },
    async touchLastUsed(id) {
      const changed = await table()
        .where({ id })
        .andWhere((q) => q.whereNull('last_used_at').orWhereRaw("last_used_at < now() - interval '1 minute'"))
        .update({ last_used_at: db.fn.now() });
      return changed > 0;
    },
  };
}
