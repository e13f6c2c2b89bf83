import type { ApiKeyRecord } from './api-keys.repository';

/** The key as both admin APIs answer it: never the token or its hash (the token is added on create and rotate only). */
export interface ApiKeyView {
  id: string;
  name: string;
  /** `expired` once `expires_at` has passed on a key that was never revoked. */
  status: 'active' | 'revoked' | 'expired';
  scopes?: string[];
  /** false for a test-mode key (`mk_test_…`); only where the service has a test mode. */
  livemode?: boolean;
  token_hint: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  rotated_at: string | null;
  revoked_at: string | null;
  previous_token_expires_at: string | null;
}

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
