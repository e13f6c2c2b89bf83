import path from 'node:path';
import { runTsToEnd } from '@platform/test-kit';

const gatewayDir = path.resolve(__dirname, '..');

describe('gateway start-up', () => {
  it.each([
    ['PORT', 'abc', 'Invalid environment variable PORT: must be a port number (got "abc")'],
    ['CERTIFICATE_URL', 'not a url', 'Invalid environment variable CERTIFICATE_URL: must be a URL, or several separated by commas (got "not a url")'],
  ])('exits 1 with one line naming %s when it is %p', async (name, value, line) => {
    const result = await runTsToEnd(gatewayDir, 'src/server.ts', { [name]: value });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`gateway: ${line}`);
  });
});
