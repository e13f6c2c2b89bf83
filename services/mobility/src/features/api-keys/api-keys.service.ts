import {
  ConflictError,
  NotFoundError,
  generateApiToken,
  hashApiToken,
  isWellFormedApiToken,
  newId,
  tokenHint,
} from '@platform/service-kit';
import type { ApiKeyRecord, ApiKeyRepository } from './api-keys.repository';

export const MOBILITY_SCOPES = ['estimates:read', 'rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage'] as const;
export type Scope = (typeof MOBILITY_SCOPES)[number];

/** What an authenticated request knows about its caller. */
export interface ApiKeyPrincipal {
  keyId: string;
  organizationId: string;
  scopes: string[];
}

export interface ApiKeyView {
  id: string;
  name: string;
  status: ApiKeyRecord['status'];
  scopes: string[];
  token_hint: string;
  created_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
}

export function toApiKeyView(key: ApiKeyRecord): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    status: key.status,
    scopes: key.scopes,
    token_hint: key.tokenHint,
    created_at: key.createdAt.toISOString(),
    rotated_at: key.rotatedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

export interface ApiKeyService {
  createKey(input: { organizationId: string; userId: string; name: string; scopes: string[] }): Promise<ApiKeyView & { token: string }>;
  listKeys(organizationId: string): Promise<ApiKeyView[]>;
  rotateKey(organizationId: string, id: string): Promise<ApiKeyView & { token: string }>;
  revokeKey(organizationId: string, id: string): Promise<ApiKeyView>;
  deleteKey(organizationId: string, id: string): Promise<void>;
  /** The principal behind a token, or undefined for a malformed, unknown, revoked or rotated-away token. */
  authenticate(token: string): Promise<ApiKeyPrincipal | undefined>;
}

/** Key rules shared by services: `prefix` names the service (`mk_`), tokens are shown once, only hashes are stored. */
export function createApiKeyService(repository: ApiKeyRepository, options: { tokenPrefix: string }): ApiKeyService {
  const { tokenPrefix } = options;

  async function findOwned(organizationId: string, id: string): Promise<ApiKeyRecord> {
    const key = await repository.findInOrganization(organizationId, id);
    if (!key) throw new NotFoundError('API key not found');
    return key;
  }

  return {
    async createKey({ organizationId, userId, name, scopes }) {
      const token = generateApiToken(tokenPrefix);
      const key = await repository.insert({
        id: newId('key'),
        organizationId,
        name,
        scopes: [...new Set(scopes)],
        tokenHash: hashApiToken(token),
        tokenHint: tokenHint(token),
        createdBy: userId,
      });
      return { ...toApiKeyView(key), token };
    },

    async listKeys(organizationId) {
      return (await repository.listByOrganization(organizationId)).map(toApiKeyView);
    },

    async rotateKey(organizationId, id) {
      const key = await findOwned(organizationId, id);
      if (key.status !== 'active') throw new ConflictError(`API key is ${key.status} and cannot be rotated`, 'api_key_revoked');
      const token = generateApiToken(tokenPrefix);
      const rotated = await repository.replaceToken(key.id, hashApiToken(token), tokenHint(token));
      if (!rotated) throw new ConflictError('API key was revoked meanwhile and cannot be rotated', 'api_key_revoked');
      return { ...toApiKeyView(rotated), token };
    },

    async revokeKey(organizationId, id) {
      const key = await findOwned(organizationId, id);
      const revoked = await repository.revoke(key.id);
      if (!revoked) throw new NotFoundError('API key not found');
      return toApiKeyView(revoked);
    },

    async deleteKey(organizationId, id) {
      const key = await findOwned(organizationId, id);
      await repository.remove(key.id);
    },

    async authenticate(token) {
      if (!isWellFormedApiToken(token, tokenPrefix)) return undefined; // refused without a database lookup
      const key = await repository.findActiveByHash(hashApiToken(token));
      if (!key) return undefined;
      return { keyId: key.id, organizationId: key.organizationId, scopes: key.scopes };
    },
  };
}
