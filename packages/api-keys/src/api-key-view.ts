import type { z } from 'zod';
import type { apiKeySchema } from './api-key-schema';
import type { ApiKeyRecord } from './api-keys.repository';

/** The key as both admin APIs answer it (`apiKeySchema`): never the token or its hash (the token is added on create and rotate only). */
export type ApiKeyView = Omit<z.infer<typeof apiKeySchema>, 'token'>;

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function isExpired(key: ApiKeyRecord, now = new Date()): boolean {
  return key.expiresAt !== null && key.expiresAt <= now;
}

export function toApiKeyView(key: ApiKeyRecord, now = new Date()): ApiKeyView {
  const graceEnds = key.previousTokenExpiresAt && key.previousTokenExpiresAt > now ? key.previousTokenExpiresAt : null;
  return {
    id: key.id,
    name: key.name,
    status: key.status === 'active' && isExpired(key, now) ? 'expired' : key.status,
    ...(key.scopes ? { scopes: key.scopes } : {}),
    ...(key.livemode !== undefined ? { livemode: key.livemode } : {}),
    token_hint: key.tokenHint,
    created_at: key.createdAt.toISOString(),
    updated_at: key.updatedAt.toISOString(),
    last_used_at: iso(key.lastUsedAt),
    expires_at: iso(key.expiresAt),
    rotated_at: iso(key.rotatedAt),
    revoked_at: iso(key.revokedAt),
    previous_token_expires_at: key.status === 'active' ? iso(graceEnds) : null,
  };
}
