import { createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/** Wrong tries allowed before the PIN locks; the delivery can then only fail. */
export const MAX_PIN_ATTEMPTS = 5;

const KEY_LENGTH = 32;

function scryptAsync(pin: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(pin, salt, KEY_LENGTH, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A 6-digit PIN from the CSPRNG; leading zeros kept. */
export function generatePin(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** `scrypt$<salt>$<hash>` (base64), with a fresh 16-byte salt per delivery. */
export async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${(await scryptAsync(pin, salt)).toString('base64')}`;
}

/** Compares in constant time; a stored value of another shape never matches. */
export async function verifyPin(pin: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(pin, Buffer.from(salt, 'base64'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * What the idempotency fingerprint holds instead of the PIN: a keyed HMAC, so a changed PIN under the same key is still
 * a 409, while the stored fingerprint (a plain hash of the body) cannot be brute-forced back to the PIN without the key.
 */
export function pinFingerprint(pin: string, key: string): string {
  return createHmac('sha256', key).update(`delivery-pin:${pin}`).digest('hex');
}
