import { ConflictError, NotFoundError, ValidationError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import { pageOf, type Page } from '@platform/service-kit/pagination';
import { isExpired, toApiKeyView, type ApiKeyView } from './api-key-view';
import type { ApiKeyAuthCache } from './api-key-cache';
import type { ApiKeyPrincipal } from './api-key-principal';
import type { ApiKeyRepository } from './api-keys.repository';
import { generateApiToken, hashApiToken, isWellFormedApiToken, tokenHint } from './token-format';

export type ApiKeyPage = Page<ApiKeyView>;

export type ApiKeyWithToken = ApiKeyView & { token: string };

export interface ApiKeyService {
  /** `livemode: false` creates a test-mode key (only where the service has a test token prefix). */
  create(input: { organizationId: string; userId: string; name: string; scopes?: string[]; expiresAt?: Date; livemode?: boolean }): Promise<ApiKeyWithToken>;
  list(organizationId: string, page: { limit: number; cursor?: string }): Promise<ApiKeyPage>;
  /** A new token; the old one keeps working for `graceSeconds` (0: refused from the next request on). */
  rotate(organizationId: string, id: string, graceSeconds?: number): Promise<ApiKeyWithToken>;
  revoke(organizationId: string, id: string): Promise<ApiKeyView>;
  remove(organizationId: string, id: string): Promise<void>;
  /** The principal behind a token, or undefined for a malformed, unknown, revoked, expired or rotated-away token. */
  authenticate(token: string): Promise<ApiKeyPrincipal | undefined>;
  /** Waits for the `last_used_at` writes started so far (graceful shutdown, tests). */
  flushUsage(): Promise<void>;
}

export const MAX_GRACE_SECONDS = 86_400;

function newToken(prefix: string) {
  const token = generateApiToken(prefix);
  return { token, hash: hashApiToken(token), hint: tokenHint(token) };
}

export interface ApiKeyServiceOptions {
  /** Names the service (`ck_`, `mk_`). */
  tokenPrefix: string;
  /** The prefix of test-mode tokens (`mk_test_`); a service without it has no test mode. Needs a repository with a livemode column. */
  testTokenPrefix?: string;
  /** The per-process authentication cache (see `ApiKeyAuthCache`); without it every request reads its key. */
  cache?: ApiKeyAuthCache;
}

/**
 * API key life cycle: none → active → (rotate) active | (expires_at passes) expired | (revoke) revoked → (delete) gone.
 * `tokenPrefix` names the service (`ck_`, `mk_`); a test-mode key's tokens carry `testTokenPrefix` (`mk_test_`) instead,
 * keep that prefix across rotations, and authenticate as `livemode: false`. Tokens are shown once; only hashes are stored.
 */
export function createApiKeyService(repository: ApiKeyRepository, options: ApiKeyServiceOptions): ApiKeyService {
  const { tokenPrefix, testTokenPrefix, cache } = options;
  if (testTokenPrefix !== undefined && !repository.hasLivemode) throw new Error('a test token prefix needs a repository with a livemode column');
  const prefixFor = (livemode: boolean | undefined) => (livemode === false && testTokenPrefix ? testTokenPrefix : tokenPrefix);

  /** The mode a token's prefix claims, or undefined when the token is malformed (checked without a database lookup). */
  function modeOfToken(token: string): boolean | undefined {
    // The test prefix first: `mk_test_…` also starts with `mk_` (the lengths differ, so it could never pass as live anyway).
    if (testTokenPrefix && isWellFormedApiToken(token, testTokenPrefix)) return false;
    if (isWellFormedApiToken(token, tokenPrefix)) return true;
    return undefined;
  }
  const pendingUsage = new Set<Promise<unknown>>();

  async function findOwned(organizationId: string, id: string) {
    const key = await repository.findInOrganization(organizationId, id);
    if (!key) throw new NotFoundError('API key not found');
    return key;
  }

  /** Fire-and-forget: the request never waits for this write, and a failed write is only a missed timestamp. */
  function recordUse(keyId: string, lastUsedAt: Date | null, tokenHash: string): void {
    if (lastUsedAt && Date.now() - lastUsedAt.getTime() < 60_000) return; // written less than a minute ago: no query at all
    cache?.noteUse(tokenHash, new Date());
    const write = repository.touchLastUsed(keyId).catch(() => false);
    pendingUsage.add(write);
    void write.finally(() => pendingUsage.delete(write));
  }

  /**
   * Runs a change to one key; with a cache, this process drops the key at once and answers only after every process
   * listening for key changes (this one too) has acknowledged dropping it, so the very next request anywhere is refused.
   */
  async function changing<T>(keyId: string, change: () => Promise<T>): Promise<T> {
    if (!cache) return change();
    const acknowledged = cache.expectAcknowledgements(keyId);
    try {
      const result = await change();
      cache.dropKey(keyId);
      if (result) await acknowledged.wait();
      else acknowledged.cancel();
      return result;
    } catch (error) {
      acknowledged.cancel();
      throw error;
    }
  }

  return {
    async create({ organizationId, userId, name, scopes, expiresAt, livemode }) {
      if (livemode === false && !testTokenPrefix) throw new ValidationError([{ path: 'mode', message: 'this service has no test mode' }]);
      const { token, hash, hint } = newToken(prefixFor(livemode));
      const key = await repository.insert({
        id: newId('key'),
        organizationId,
        createdBy: userId,
        name,
        scopes: scopes ? [...new Set(scopes)] : undefined,
        ...(repository.hasLivemode ? { livemode: livemode ?? true } : {}),
        tokenHash: hash,
        tokenHint: hint,
        expiresAt,
      });
      return { ...toApiKeyView(key), token };
    },

    async list(organizationId, { limit, cursor }) {
      return pageOf(await repository.page(organizationId, limit, cursor), limit, (row) => toApiKeyView(row));
    },

    async rotate(organizationId, id, graceSeconds = 0) {
      const key = await findOwned(organizationId, id);
      if (key.status === 'revoked') throw new ConflictError('A revoked API key cannot be rotated', 'api_key_revoked');
      if (isExpired(key)) throw new ConflictError('An expired API key cannot be rotated', 'api_key_expired');
      const { token, hash, hint } = newToken(prefixFor(key.livemode));
      const rotated = await changing(id, () => repository.replaceToken(organizationId, id, { hash, hint }, graceSeconds));
      if (!rotated) throw new ConflictError('A revoked API key cannot be rotated', 'api_key_revoked'); // revoked or deleted meanwhile
      return { ...toApiKeyView(rotated), token };
    },

    async revoke(organizationId, id) {
      const revoked = await changing(id, () => repository.revoke(organizationId, id));
      if (!revoked) throw new NotFoundError('API key not found');
      return toApiKeyView(revoked);
    },

    async remove(organizationId, id) {
      if (!(await changing(id, () => repository.remove(organizationId, id)))) throw new NotFoundError('API key not found');
    },

    async authenticate(token) {
      const livemode = modeOfToken(token);
      if (livemode === undefined) return undefined; // refused without a database lookup
      const tokenHash = hashApiToken(token);
      const cached = cache?.get(tokenHash);
      if (cached) {
        recordUse(cached.principal.keyId, cached.lastUsedAt, tokenHash);
        return cached.principal;
      }
      const generation = cache?.beginLookup() ?? 0;
      const key = await repository.findUsableByHash(tokenHash);
      // The token's prefix and the key's stored mode agree for every token this service issued; refuse anything else.
      if (!key || (key.livemode ?? true) !== livemode) return undefined;
      const principal = { keyId: key.id, organizationId: key.organizationId, scopes: key.scopes ?? [], livemode };
      cache?.store(tokenHash, { principal, lastUsedAt: key.lastUsedAt }, [key.expiresAt, key.previousTokenExpiresAt], generation);
      recordUse(key.id, key.lastUsedAt, tokenHash);
      return principal;
    },

    async flushUsage() {
      await Promise.all([...pendingUsage]);
    },
  };
}
