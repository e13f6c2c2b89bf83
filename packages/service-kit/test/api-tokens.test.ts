import { generateApiToken, hashApiToken, isWellFormedApiToken, bearerToken } from '../src/api-tokens';
import { isIdOf, newId } from '../src/ids';

describe('API tokens', () => {
  it('carry the prefix, enough randomness and a checksum that catches a typo', () => {
    const token = generateApiToken('ck_');
    expect(token).toMatch(/^ck_[0-9A-Za-z]{36}$/);
    expect(isWellFormedApiToken(token, 'ck_')).toBe(true);
    expect(isWellFormedApiToken(token, 'mk_')).toBe(false);
    const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedApiToken(typo, 'ck_')).toBe(false);
    expect(isWellFormedApiToken(token + 'x', 'ck_')).toBe(false);
  });

  it('are unique and stored only as a SHA-256 hash', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateApiToken('mk_')));
    expect(tokens.size).toBe(1000);
    const [first] = tokens;
    expect(hashApiToken(first!)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken(first!)).not.toContain(first!.slice(3, 20));
  });

  it('are read from a Bearer header only', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});

describe('IDs', () => {
  it('are prefixed and recognised by shape', () => {
    const id = newId('ride');
    expect(id).toMatch(/^ride_[0-9a-z]{20}$/);
    expect(isIdOf('ride', id)).toBe(true);
    expect(isIdOf('dlv', id)).toBe(false);
    expect(isIdOf('ride', "ride_' or 1=1 --")).toBe(false);
  });
});
