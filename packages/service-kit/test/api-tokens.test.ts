import { bearerToken, constantTimeEqual } from '../src/api-tokens';
import { isIdOf, newId } from '../src/ids';

describe('request credentials', () => {
  it('read a token from a Bearer header only', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it('compare secrets of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
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
