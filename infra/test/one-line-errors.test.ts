import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { listen, runTsToEnd } from '@platform/test-kit';
import { tellingLine } from '../../scripts/embedded-postgres';

const root = path.resolve(__dirname, '../..');

/** What a person reads: one line of its own, no stack trace. */
function expectOneLine(text: string, fragment: string): void {
  const lines = text.trim().split('\n');
  expect(lines.some((line) => line.includes(fragment))).toBe(true);
  expect(text).not.toMatch(/^\s+at /m);
}

describe('start-up mistakes give one line, not a stack trace', () => {
  it('names the port when the gateway port is taken by another program, and exits 1', async () => {
    const squatter = await listen((_req, res) => res.end('someone else'));
    try {
      const result = await runTsToEnd(path.join(root, 'gateway'), 'src/server.ts', { PORT: String(squatter.port), LOG_LEVEL: 'warn' });
      expect(result.code).toBe(1);
      expectOneLine(result.stderr, `gateway: port ${squatter.port} is already in use by another program`);
    } finally {
      await squatter.close();
    }
  });

  it('names TLS_CERT_FILE when the certificate file does not exist, and exits 1', async () => {
    const result = await runTsToEnd(path.join(root, 'gateway'), 'src/server.ts', { PORT: '0', TLS_CERT_FILE: '/no/such/cert.pem', TLS_KEY_FILE: '/no/such/key.pem' });
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, 'TLS_CERT_FILE');
  });

  it('prints the certificate CLI usage for --help and exits 0; an unknown option is one line and the usage, exit 2', () => {
    const cli = path.join(root, 'services/certificate');
    const asked = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/cli/cli.ts', '--help'], { cwd: cli, encoding: 'utf8' });
    expect(asked.status).toBe(0);
    expect(asked.stdout).toMatch(/^usage:\n {2}cli keys create .*\[--test\]/);
    const unknown = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/cli/cli.ts', 'credits', '--frobnicate'], { cwd: cli, encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expectOneLine(unknown.stderr, "Unknown option '--frobnicate'");
  });
});

describe('a local store that does not start is named by the line that says why', () => {
  // What Postgres prints when it cannot listen: the FATAL line matters, the last line ("shut down") says nothing.
  const postgresLog = [
    '2026-11-29 20:08:57.110 UTC [6274] LOG:  starting PostgreSQL 16.4 on x86_64-pc-linux-gnu',
    '2026-11-29 20:08:57.111 UTC [6274] LOG:  could not bind IPv4 address "127.0.0.1": Permission denied',
    '2026-11-29 20:08:57.112 UTC [6274] FATAL:  could not create any TCP/IP sockets',
    '2026-11-29 20:08:57.118 UTC [6274] LOG:  database system is shut down',
    '',
  ].join('\n');

  it('picks the last error line over a closing one, and the last line when nothing names an error', () => {
    expect(tellingLine(postgresLog)).toBe('2026-11-29 20:08:57.112 UTC [6274] FATAL:  could not create any TCP/IP sockets');
    expect(tellingLine('starting\nready to start\n')).toBe('ready to start');
    expect(tellingLine('')).toBe('no output');
  });
});
