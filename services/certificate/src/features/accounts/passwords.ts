import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's cost, stored with each hash: N = 2^17, r = 8, p = 1 (OWASP's minimum), 128 MiB and a few hundred
 * milliseconds per hash. Hashes made with a lower cost are replaced at the next successful sign-in.
 */
export const COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 64;
/** scrypt needs 128 · N · r bytes (128 MiB); the limit leaves room above that. */
const MAX_MEMORY = 256 * 1024 * 1024;
/** Hashes computed at once per process: each holds 128 MiB, so a burst of sign-ups waits instead of exhausting memory. */
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return withSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

/** `scrypt$N$r$p$<salt base64>$<key base64>`: the parameters travel with the hash, so the cost can rise later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether a stored hash was made with other parameters than today's (then a successful sign-in rehashes it). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== COST.N || Number(r) !== COST.r || Number(p) !== COST.p;
}

/** A hash no password matches: unknown emails are checked against it so they take as long as known ones. */
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored` (constant-time); with `stored` undefined it spends the same time and says no. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const hash = stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(actual, expected) && stored !== undefined;
}
