import { generateApiToken, hashApiToken, isWellFormedApiToken, tokenHint } from '../src/token-format';

describe('API tokens', () => {
  it('carry the prefix, 30 random base62 characters and a 6-character checksum that catches a typo', () => {
    const token = generateApiToken('ck_');
    expect(token).toMatch(/^ck_[0-9A-Za-z]{36}$/);
    expect(isWellFormedApiToken(token, 'ck_')).toBe(true);
    expect(isWellFormedApiToken(token, 'mk_')).toBe(false);
    const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    expect(isWellFormedApiToken(typo, 'ck_')).toBe(false);
    expect(isWellFormedApiToken(token + 'x', 'ck_')).toBe(false);
  });

  it('keep accepting tokens issued before: the checksum of a known token is unchanged', () => {
    // Issued with the earlier hand-written CRC32 table; zlib.crc32 must give the same 6 characters.
    expect(isWellFormedApiToken('ck_Zr4Kq9TtW2bYc7LmN0pQxVd3HsFgJ13uhmsn', 'ck_')).toBe(true);
    expect(isWellFormedApiToken('mk_0000000000000000000000000000002C8GjS', 'mk_')).toBe(true);
    expect(isWellFormedApiToken('ck_Zr4Kq9TtW2bYc7LmN0pQxVd3HsFgJ13uhmso', 'ck_')).toBe(false);
  });

  it('are unique and stored only as a SHA-256 hash; the hint shows the prefix and the last 4 characters', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => generateApiToken('mk_')));
    expect(tokens.size).toBe(1000);
    const [first] = tokens;
    expect(hashApiToken(first!)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken(first!)).not.toContain(first!.slice(3, 20));
    expect(tokenHint(first!)).toBe(`${first!.slice(0, 7)}…${first!.slice(-4)}`);
  });
});
