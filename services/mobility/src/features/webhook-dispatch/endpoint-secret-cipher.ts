import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { secretWeakness } from '@platform/service-kit/secret-strength';

/**
 * Webhook signing secrets are stored encrypted (AES-256-GCM) as `v1:<key id>:<base64url of iv ‖ ciphertext ‖ tag>`.
 * The endpoint id is the additional authenticated data, so a stored value only decrypts for its own row. The key id
 * lets the key rotate: rows under a previous key still decrypt (WEBHOOK_SECRET_KEYS_PREVIOUS) and are re-encrypted
 * under the current one. A value that does not start with `v1:` is a plaintext secret from before encryption.
 */
export interface EndpointSecretCipher {
  /** The key id new values are encrypted under. */
  readonly currentKeyId: string;
  encrypt(endpointId: string, secret: string): string;
  /** The secret, and whether the stored value should be rewritten under the current key (plaintext or an older key). */
  decrypt(endpointId: string, stored: string): { secret: string; stale: boolean };
}

export interface SecretKeyConfig {
  NODE_ENV: string;
  WEBHOOK_SECRET_KEY?: string | undefined;
  WEBHOOK_SECRET_KEY_ID?: string | undefined;
  WEBHOOK_SECRET_KEYS_PREVIOUS?: string | undefined;
}

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The development key: public by design, used only when WEBHOOK_SECRET_KEY is unset outside production. */
export const DEVELOPMENT_SECRET_KEY = 'development-only mobility webhook secret key (public, never for production)';
export const DEVELOPMENT_SECRET_KEY_ID = 'dev';

/** 32 bytes for AES-256 from the configured string (any length of at least 32 bytes in production). */
function deriveKey(material: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, '', 'mobility webhook endpoint secrets v1', 32));
}

/** Without WEBHOOK_SECRET_KEY_ID the key names itself: the first 8 hex digits of its SHA-256. */
function defaultKeyId(material: string): string {
  return createHash('sha256').update(material).digest('hex').slice(0, 8);
}

/** `id1:key1,id2:key2` → pairs (a key may contain `:` but not `,`). */
export function parsePreviousKeys(value: string | undefined): [string, string][] {
  if (!value || !value.trim()) return [];
  return value.split(',').map((pair) => {
    const at = pair.indexOf(':');
    if (at <= 0 || at === pair.length - 1) throw new Error('WEBHOOK_SECRET_KEYS_PREVIOUS must be comma-separated id:key pairs');
    return [pair.slice(0, at).trim(), pair.slice(at + 1)];
  });
}

/** The cipher from the configuration. In production WEBHOOK_SECRET_KEY is required (and every key must be strong). */
export function createEndpointSecretCipher(config: SecretKeyConfig): EndpointSecretCipher {
  const production = config.NODE_ENV === 'production';
  if (production && !config.WEBHOOK_SECRET_KEY) throw new Error('WEBHOOK_SECRET_KEY is required when NODE_ENV=production (it encrypts webhook signing secrets)');
  const material = config.WEBHOOK_SECRET_KEY ?? DEVELOPMENT_SECRET_KEY;
  const currentKeyId = config.WEBHOOK_SECRET_KEY ? (config.WEBHOOK_SECRET_KEY_ID ?? defaultKeyId(material)) : DEVELOPMENT_SECRET_KEY_ID;
  const keys = new Map<string, Buffer>([[currentKeyId, deriveKey(material)]]);
  for (const [id, previous] of parsePreviousKeys(config.WEBHOOK_SECRET_KEYS_PREVIOUS)) {
    const weakness = production ? secretWeakness(previous) : undefined;
    if (weakness) throw new Error(`WEBHOOK_SECRET_KEYS_PREVIOUS key ${id}: ${weakness} when NODE_ENV=production`);
    if (!keys.has(id)) keys.set(id, deriveKey(previous));
  }
  return createCipherWithKeys(currentKeyId, keys);
}

export function createCipherWithKeys(currentKeyId: string, keys: ReadonlyMap<string, Buffer>): EndpointSecretCipher {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(currentKeyId)) throw new Error('WEBHOOK_SECRET_KEY_ID must be 1-32 letters, digits, _ or -');
  const current = keys.get(currentKeyId)!;
  return {
    currentKeyId,
    encrypt(endpointId, secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(Buffer.from(endpointId, 'utf8'));
      const sealed = Buffer.concat([iv, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${FORMAT}:${currentKeyId}:${sealed.toString('base64url')}`;
    },
    decrypt(endpointId, stored) {
      if (!stored.startsWith(`${FORMAT}:`)) return { secret: stored, stale: true }; // plaintext from before encryption
      const [, keyId, payload] = stored.split(':');
      const key = keys.get(keyId ?? '');
      if (!key || !payload) throw new Error(`webhook secret of ${endpointId} is encrypted under key id ${keyId}, which is not configured`);
      const sealed = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(endpointId, 'utf8'));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const secret = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      return { secret, stale: keyId !== currentKeyId };
    },
  };
}

/**
 * The cipher with its decryptions remembered (up to `maxEntries`, then forgotten all at once): every message of a
 * backlog for one endpoint would otherwise pay an AES-GCM pass for the same secret. Keyed by endpoint and stored value,
 * so a rotated or re-encrypted secret (a new stored value) is never answered from the cache.
 */
export function withDecryptCache(cipher: EndpointSecretCipher, maxEntries = 10_000): EndpointSecretCipher {
  const cache = new Map<string, { secret: string; stale: boolean }>();
  return {
    ...cipher,
    decrypt(endpointId, stored) {
      const key = `${endpointId}\n${stored}`;
      const known = cache.get(key);
      if (known) return known;
      const decrypted = cipher.decrypt(endpointId, stored);
      if (cache.size >= maxEntries) cache.clear();
      cache.set(key, decrypted);
      return decrypted;
    },
  };
}
