import type { z } from 'zod';
import { DEV_JWT_SECRET } from './config';

/** A production secret must carry at least this many bytes (256 bits: HS256 keys, payment keys, encryption keys). */
export const MIN_SECRET_BYTES = 32;

/**
 * Values anyone who has read the repository knows: the development default, the old docker-compose fallback and the
 * example Secret's placeholders. Anything containing `change-me`, `changeme` or `replace` is refused as well.
 */
export const KNOWN_PLACEHOLDER_SECRETS: readonly string[] = [
  DEV_JWT_SECRET,
  'compose-development-secret-change-me',
  'replace-with-at-least-32-random-characters',
  'replace-me',
];

const PLACEHOLDER_WORDS = /change-?me|replace/i;

/**
 * A production secret's estimated entropy must reach this many bits: its length times the Shannon entropy of its own
 * character frequencies. 32 × `a` scores 0 and `abab…` 32; 32 random bytes as hex or base64 score about 190–250, and
 * even 16 random bytes as 32 hex digits stay above 90. An estimate, not a proof: it refuses values that are plainly not
 * random (repeated characters, short cycles), whatever their length.
 */
export const MIN_SECRET_ENTROPY_BITS = 80;

/** length × (Shannon entropy per character of the value's own character frequencies), in bits. */
export function estimatedEntropyBits(value: string): number {
  const characters = [...value];
  const counts = new Map<string, number>();
  for (const character of characters) counts.set(character, (counts.get(character) ?? 0) + 1);
  let perCharacter = 0;
  for (const count of counts.values()) {
    const p = count / characters.length;
    perCharacter -= p * Math.log2(p);
  }
  return characters.length * perCharacter;
}

/**
 * Words people build passwords from (the head of the common-password lists, lower case). A value that is nothing but these,
 * keyboard or alphabet runs (`123`, `abc`, `qwerty`), repetitions and punctuation is guessable whatever its length:
 * `Password123Password123Password123!` is 34 bytes with ~100 bits by the character count, and among the first guesses.
 */
export const COMMON_PASSWORD_WORDS: readonly string[] = [
  'password', 'passwort', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pass', 'secret', 's3cret', 'qwerty', 'azerty', 'qwertz', 'asdf', 'zxcv',
  'letmein', 'welcome', 'admin', 'administrator', 'root', 'changeit', 'default', 'iloveyou', 'monkey', 'dragon', 'trustno1',
  'master', 'login', 'football', 'baseball', 'sunshine', 'shadow', 'princess', 'superman', 'batman', 'hello', 'test', 'example',
  'jwt', 'key', 'token', 'production', 'prod', 'development', 'dev', 'platform', 'partner', 'webhook', 'tracking', 'signing',
];

/**
 * What must remain (by estimatedEntropyBits) once the common patterns are taken out. Lower than MIN_SECRET_ENTROPY_BITS
 * because taking out runs also takes a little from random values (16 random bytes as hex keep 65 bits or more).
 */
export const MIN_UNPATTERNED_ENTROPY_BITS = 56;

/** Runs along the alphabet, the digits or a keyboard row (forwards or backwards) of 3 or more characters. */
const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** What is left of `value` once common words, runs, punctuation and whole-value repetition are taken out. */
export function withoutCommonPatterns(value: string): string {
  let rest = value.toLowerCase();
  for (const word of [...COMMON_PASSWORD_WORDS].sort((a, b) => b.length - a.length)) rest = rest.split(word).join(' ');
  rest = removeRuns(rest).replace(/[^\p{L}\p{N}]+/gu, '');
  // The same unit two or more times (`abc9abc9abc9`) carries no more than the unit.
  const unit = /^(.+?)\1+$/u.exec(rest);
  return unit ? unit[1]! : rest;
}

function removeRuns(text: string): string {
  const characters = [...text];
  const keep = characters.map(() => true);
  // +1 or -1 along one row: `123`, `cba`, `qwe`; `aba` is no run.
  const step = (a: string, b: string) => (SEQUENCES.some((row) => row.includes(a + b)) ? 1 : SEQUENCES.some((row) => row.includes(b + a)) ? -1 : 0);
  let start = 0;
  let direction = 0;
  for (let i = 1; i <= characters.length; i += 1) {
    const next = i < characters.length ? step(characters[i - 1]!, characters[i]!) : 0;
    if (next !== 0 && (direction === 0 || next === direction)) {
      direction = next;
      continue;
    }
    if (i - start >= 3) for (let j = start; j < i; j += 1) keep[j] = false;
    start = next === 0 ? i : i - 1;
    direction = next;
  }
  return characters.filter((_, i) => keep[i]).join('');
}

/** Why a value cannot serve as a production secret, or undefined when it can. */
export function secretWeakness(value: string): string | undefined {
  if (value === DEV_JWT_SECRET) return 'the development default is refused';
  if (KNOWN_PLACEHOLDER_SECRETS.includes(value) || PLACEHOLDER_WORDS.test(value)) return 'a placeholder from the repository is refused';
  if (Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES) return `must be at least ${MIN_SECRET_BYTES} bytes`;
  if (estimatedEntropyBits(value) < MIN_SECRET_ENTROPY_BITS) return 'a low-entropy value (too few different characters to be random) is refused';
  if (estimatedEntropyBits(withoutCommonPatterns(value)) < MIN_UNPATTERNED_ENTROPY_BITS) return 'a value built from common passwords, runs (123, abc, qwerty) or repetition is refused';
  return undefined;
}

/**
 * For a config schema's `.superRefine`: with NODE_ENV=production every named secret that is set must be strong
 * (secretWeakness) and its own: one value in two of the named variables is refused at the second (whoever learns one
 * key then holds both). The issue's path names the variable, so the process exits with one line naming it.
 */
export function requireStrongSecretsInProduction<K extends string>(names: readonly K[]) {
  return (config: { NODE_ENV: string } & { [name in K]?: string | undefined }, ctx: z.RefinementCtx): void => {
    if (config.NODE_ENV !== 'production') return;
    const seen = new Map<string, K>();
    for (const name of names) {
      const value = config[name];
      if (typeof value !== 'string') continue;
      const weakness = secretWeakness(value);
      const earlier = seen.get(value);
      if (weakness) ctx.addIssue({ code: 'custom', path: [name], message: `${weakness} when NODE_ENV=production` });
      else if (earlier) ctx.addIssue({ code: 'custom', path: [name], message: `is the same value as ${earlier}: each secret must be its own when NODE_ENV=production` });
      seen.set(value, earlier ?? name);
    }
  };
}
