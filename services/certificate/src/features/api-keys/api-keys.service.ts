import { ConflictError, NotFoundError, generateApiToken, hashApiToken, newId, tokenHint } from '@platform/service-kit';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

export const CERTIFICATE_TOKEN_PREFIX = 'ck_';

/** The key as the dashboard sees it: never the token or its hash. */
export function presentApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    token_hint: row.token_hint,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

function newToken() {
  const token = generateApiToken(CERTIFICATE_TOKEN_PREFIX);
  return { token, hash: hashApiToken(token), hint: tokenHint(token) };
}

/** API key life cycle (source §3): none → active → (rotate) active | revoked → removed. */
export function apiKeysService(repository: ApiKeysRepository) {
  return {
    async create(organizationId: string, userId: string, name: string) {
      const { token, hash, hint } = newToken();
      const row = await repository.insert({ id: newId('key'), organizationId, userId, name, tokenHash: hash, tokenHint: hint });
      return { ...presentApiKey(row), token };
    },
    async list(organizationId: string) {
      return (await repository.list(organizationId)).map(presentApiKey);
    },
    async rotate(organizationId: string, id: string) {
      const { token, hash, hint } = newToken();
      const row = await repository.replaceToken(organizationId, id, hash, hint);
      if (row) return { ...presentApiKey(row), token };
      const existing = await repository.find(organizationId, id);
      if (!existing) throw new NotFoundError('API key not found');
      throw new ConflictError('A revoked API key cannot be rotated', 'api_key_revoked');
    },
    async revoke(organizationId: string, id: string) {
      const row = await repository.revoke(organizationId, id);
      if (!row) throw new NotFoundError('API key not found');
      return { id: row.id, status: row.status };
    },
    async remove(organizationId: string, id: string) {
      if (!(await repository.remove(organizationId, id))) throw new NotFoundError('API key not found');
    },
  };
}
