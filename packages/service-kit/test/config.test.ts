import { z } from 'zod';
import { ConfigError, env, parseConfig } from '../src/config';

const schema = z.object({ PORT: env.port(3001), ALLOW: env.boolean(false), SECRET_KEY: z.string().min(8).optional() });

describe('parseConfig', () => {
  it('applies defaults, treats empty strings as unset and coerces values', () => {
    expect(parseConfig(schema, {})).toEqual({ PORT: 3001, ALLOW: false });
    expect(parseConfig(schema, { PORT: '', ALLOW: 'true' })).toEqual({ PORT: 3001, ALLOW: true });
    expect(parseConfig(schema, { PORT: '8081', ALLOW: '0' })).toEqual({ PORT: 8081, ALLOW: false });
  });

  it('names the bad variable and its value in one line', () => {
    expect(() => parseConfig(schema, { PORT: 'abc' })).toThrow(new ConfigError('Invalid environment variable PORT: must be a port number (got "abc")'));
    expect(() => parseConfig(schema, { ALLOW: 'maybe' })).toThrow(/^Invalid environment variable ALLOW: must be true or false/);
  });

  it('never prints the value of a secret', () => {
    try {
      parseConfig(schema, { SECRET_KEY: 'short' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid environment variable SECRET_KEY: .*\(got a hidden value\)$/);
      expect((error as Error).message).not.toContain('short');
    }
  });
});
