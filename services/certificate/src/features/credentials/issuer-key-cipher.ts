import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The organizations' issuer private keys are stored encrypted (AES-256-GCM) under the platform's
 * ISSUER_KEY_ENCRYPTION_KEY, as `v1:<base64url of iv ‖ ciphertext ‖ tag>`. The organization and key ids are the
 * additional authenticated data, so a stored value decrypts only for its own row. Unset outside production: a fixed,
 * published development key (production refuses to start without one).
 */
export const DEVELOPMENT_ISSUER_KEY_ENCRYPTION_KEY = 'development-only certificate issuer key encryption key (public, never for production)';

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface IssuerKeyCipher {
  encrypt(aad: string, plaintext: Buffer): string;
  decrypt(aad: string, stored: string): Buffer;
}

export function createIssuerKeyCipher(material: string | undefined): IssuerKeyCipher {
  const key = Buffer.from(hkdfSync('sha256', material ?? DEVELOPMENT_ISSUER_KEY_ENCRYPTION_KEY, '', 'certificate issuer private keys v1', 32));
  return {
    encrypt(aad, plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad));
      const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
      return `${FORMAT}:${sealed.toString('base64url')}`;
    },
    decrypt(aad, stored) {
      if (!stored.startsWith(`${FORMAT}:`)) throw new Error('issuer key: unknown storage format');
      const sealed = Buffer.from(stored.slice(FORMAT.length + 1), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
    },
  };
}
