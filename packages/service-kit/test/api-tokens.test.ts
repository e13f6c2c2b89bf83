import { bearerToken, constantTimeEqual } from '../src/api-tokens';
import { NotFoundError } from '../src/errors';
import { idParam, isIdOf, newId, randomString } from '../src/ids';

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

  it('as path parameters: the id itself, or a 404 naming what was not found for any other shape', () => {
    const id = newId('dlv');
    expect(idParam('dlv', id, 'Delivery not found')).toBe(id);
    for (const bad of [newId('ride'), 'dlv_short', `${id}x`, undefined, ['dlv'], 42]) {
      expect(() => idParam('dlv', bad, 'Delivery not found')).toThrow(new NotFoundError('Delivery not found'));
    }
  });

  it('come from randomString: the asked length, only the alphabet, every symbol used', () => {
    const drawn = randomString('abc', 3000);
    expect(drawn).toMatch(/^[abc]{3000}$/);
    expect(new Set(drawn)).toEqual(new Set(['a', 'b', 'c']));
    expect(() => randomString('a', 5)).toThrow(RangeError);
  });
});
