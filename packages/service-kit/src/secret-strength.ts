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

/** Why a value cannot serve as a production secret, or undefined when it can. */
export function secretWeakness(value: string): string | undefined {
  if (value === DEV_JWT_SECRET) return 'the development default is refused';
  if (KNOWN_PLACEHOLDER_SECRETS.includes(value) || PLACEHOLDER_WORDS.test(value)) return 'a placeholder from the repository is refused';
  if (Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES) return `must be at least ${MIN_SECRET_BYTES} bytes`;
  if (estimatedEntropyBits(value) < MIN_SECRET_ENTROPY_BITS) return 'a low-entropy value (too few different characters to be random) is refused';
  return undefined;
}

/**
 * For a config schema's `.superRefine`: with NODE_ENV=production every named secret that is set must be strong
 * (secretWeakness); the issue's path names the variable, so the process exits with one line naming it.
 */
export function requireStrongSecretsInProduction<K extends string>(names: readonly K[]) {
  return (config: { NODE_ENV: string } & { [name in K]?: string | undefined }, ctx: z.RefinementCtx): void => {
    if (config.NODE_ENV !== 'production') return;
    for (const name of names) {
      const value = config[name];
      const weakness = typeof value === 'string' ? secretWeakness(value) : undefined;
      if (weakness) ctx.addIssue({ code: 'custom', path: [name], message: `${weakness} when NODE_ENV=production` });
    }
  };
}
