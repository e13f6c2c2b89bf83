import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConfigError, DEV_JWT_SECRET, env, jwtSecretSchema, parseConfig } from '../src/config';
import { estimatedEntropyBits, KNOWN_PLACEHOLDER_SECRETS, requireStrongSecretsInProduction, secretWeakness, withoutCommonPatterns } from '../src/secret-strength';

const schema = z
  .object({ NODE_ENV: env.nodeEnv(), JWT_SECRET: jwtSecretSchema(), PAYMENT_KEY: z.string().optional() })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET', 'PAYMENT_KEY']));

const strong = () => randomBytes(32).toString('base64url');

describe('secretWeakness', () => {
  it('accepts 32 random bytes and refuses anything shorter than 32 bytes', () => {
    expect(secretWeakness(strong())).toBeUndefined();
    expect(secretWeakness('a'.repeat(31))).toBe('must be at least 32 bytes');
    // 16 two-byte characters are 32 bytes: long enough (only the entropy rule judges them then).
    expect(secretWeakness('é'.repeat(16))).not.toBe('must be at least 32 bytes');
  });

  it('refuses low-entropy values of any length, and accepts random hex and base64', () => {
    for (const value of ['a'.repeat(32), 'a'.repeat(200), 'ab'.repeat(16), 'abcd'.repeat(8), `${'a'.repeat(40)}b`]) {
      expect(secretWeakness(value)).toBe('a low-entropy value (too few different characters to be random) is refused');
    }
    for (let i = 0; i < 200; i += 1) {
      expect(secretWeakness(randomBytes(32).toString('hex'))).toBeUndefined();
      expect(secretWeakness(randomBytes(16).toString('hex'))).toBeUndefined();
      expect(secretWeakness(randomBytes(32).toString('base64'))).toBeUndefined();
    }
    expect(estimatedEntropyBits('a'.repeat(32))).toBe(0);
    expect(estimatedEntropyBits('ab'.repeat(16))).toBe(32);
  });

  it.each([...KNOWN_PLACEHOLDER_SECRETS, `${strong()}-change-me`, `CHANGEME-${strong()}`, `replace-with-${strong()}`])('refuses the placeholder %s', (value) => {
    expect(secretWeakness(value)).toMatch(/refused$/);
  });
});

describe('secretWeakness: common passwords and patterns', () => {
  const patterned = 'a value built from common passwords, runs (123, abc, qwerty) or repetition is refused';

  it.each([
    'Password123Password123Password123!',
    'P@ssw0rd!P@ssw0rd!P@ssw0rd!P@ssw0rd!',
    'SuperSecretJwtKeyForProduction2024!!',
    'qwertyuiopasdfghjklzxcvbnm1234567890',
    'abcdefghijklmnopqrstuvwxyz0123456789',
    'Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3',
    'letmein-welcome-admin-iloveyou-9876543',
  ])('refuses %s, long and varied as it is', (value) => {
    expect(Buffer.byteLength(value)).toBeGreaterThanOrEqual(32);
    expect(estimatedEntropyBits(value)).toBeGreaterThanOrEqual(80); // the character count alone would pass it
    expect(secretWeakness(value)).toBe(patterned);
  });

  it('takes out words, runs in one direction and repetition, not random characters', () => {
    expect(withoutCommonPatterns('Password123Password123Password123!')).toBe('');
    expect(withoutCommonPatterns('x9aba7')).toBe('x9aba7'); // `aba` goes back and forth: no run
    expect(withoutCommonPatterns('k2j4k2j4k2j4')).toBe('k2j4');
  });

  it('keeps accepting random secrets and long passphrases', () => {
    for (let i = 0; i < 2000; i += 1) {
      expect(secretWeakness(randomBytes(16).toString('hex'))).toBeUndefined();
      expect(secretWeakness(randomBytes(32).toString('base64url'))).toBeUndefined();
    }
    expect(secretWeakness('correct horse battery staple, purple elephant')).toBeUndefined();
  });
});

describe('requireStrongSecretsInProduction', () => {
  it('lets development and tests run on the default and on short values', () => {
    expect(parseConfig(schema, {}).JWT_SECRET).toBe(DEV_JWT_SECRET);
    expect(parseConfig(schema, { NODE_ENV: 'test', PAYMENT_KEY: 'sk_test' }).PAYMENT_KEY).toBe('sk_test');
  });

  it('refuses the unset development default in production, naming the variable', () => {
    expect(() => parseConfig(schema, { NODE_ENV: 'production' })).toThrow(
      new ConfigError('Invalid environment variable JWT_SECRET: the development default is refused when NODE_ENV=production (got unset)'),
    );
  });

  it.each([
    ['JWT_SECRET', 'replace-with-at-least-32-random-characters', 'a placeholder from the repository is refused'],
    ['JWT_SECRET', 'compose-development-secret-change-me', 'a placeholder from the repository is refused'],
    ['PAYMENT_KEY', 'sk_live_short', 'must be at least 32 bytes'],
    ['JWT_SECRET', 'a'.repeat(32), 'a low-entropy value (too few different characters to be random) is refused'],
  ])('refuses %s=%s in production without printing it', (name, value, reason) => {
    const given = { NODE_ENV: 'production', JWT_SECRET: strong(), PAYMENT_KEY: strong(), [name]: value };
    expect(() => parseConfig(schema, given)).toThrow(new ConfigError(`Invalid environment variable ${name}: ${reason} when NODE_ENV=production (got a hidden value)`));
  });

  it('refuses one value in two variables, naming the second, without printing it', () => {
    const secret = strong();
    expect(() => parseConfig(schema, { NODE_ENV: 'production', JWT_SECRET: secret, PAYMENT_KEY: secret })).toThrow(
      new ConfigError('Invalid environment variable PAYMENT_KEY: is the same value as JWT_SECRET: each secret must be its own when NODE_ENV=production (got a hidden value)'),
    );
    expect(parseConfig(schema, { NODE_ENV: 'development', JWT_SECRET: secret, PAYMENT_KEY: secret }).PAYMENT_KEY).toBe(secret);
  });

  it('refuses Password123Password123Password123! in production', () => {
    expect(() => parseConfig(schema, { NODE_ENV: 'production', JWT_SECRET: 'Password123Password123Password123!' })).toThrow(
      /^Invalid environment variable JWT_SECRET: a value built from common passwords, runs \(123, abc, qwerty\) or repetition is refused when NODE_ENV=production \(got a hidden value\)$/,
    );
  });

  it('accepts strong values and leaves an optional secret unset', () => {
    const secret = strong();
    expect(parseConfig(schema, { NODE_ENV: 'production', JWT_SECRET: secret })).toEqual({ NODE_ENV: 'production', JWT_SECRET: secret });
  });
});
