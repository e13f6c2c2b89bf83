/**
 * The README's quick start stops at its first error. Terminal 2's commands run as written in one bash, in a folder
 * where `pnpm` (and `./pnpmw`) is a stand-in that answers as the operator CLI does or fails, and `localhost:8080` is a
 * server that refuses every request; no system is started. Whatever fails first, nothing after it runs and the shell
 * exits non-zero with the failure's message on stderr.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { quickStartCommands } from './helpers/quickstart';

jest.setTimeout(60000);

/** Answers like `pnpm -s platform …` (the stand-in logs each call); `org create` fails when FAIL_ORG_CREATE is set. */
const STAND_IN = `#!/usr/bin/env bash
echo "$*" >> "$CALLS"
case "$*" in
  *"org create"*) if [ -n "\${FAIL_ORG_CREATE:-}" ]; then echo 'error: connect ECONNREFUSED 127.0.0.1:5432' >&2; exit 1; fi; echo org_quickstart ;;
  *"keys create"*) echo mk_test_quickstart ;;
  *"webhooks listen"*) echo 'Ready.' ;;
esac
`;

let folder: string;
let server: Server;
let requests: string[];

beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quickstart-errors-'));
  for (const name of ['pnpm', 'pnpmw']) fs.writeFileSync(path.join(folder, name), STAND_IN, { mode: 0o755 });
  requests = [];
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/problem+json' }).end('{"type":"about:blank","title":"Unauthorized","status":401,"code":"invalid_api_key"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Terminal 2 of the quick start (every command after the start line) in one bash; its exit code and output. */
function runTerminalTwo(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [, ...terminalTwo] = quickStartCommands();
  const port = (server.address() as AddressInfo).port;
  const script = terminalTwo.map((command) => command.text.replaceAll('localhost:8080', `localhost:${port}`)).join('\n');
  return new Promise((resolve) => {
    const bash = spawn('bash', ['-c', `${script}\nwait`], {
      cwd: folder,
      env: { ...process.env, PATH: `${folder}${path.delimiter}${process.env.PATH}`, CALLS: path.join(folder, 'calls'), ...env },
    });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    bash.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const calls = () => fs.readFileSync(path.join(folder, 'calls'), 'utf8').trim().split('\n');

beforeEach(() => {
  requests.length = 0;
  fs.rmSync(path.join(folder, 'calls'), { force: true });
});

describe('README quick start, terminal 2', () => {
  it('stops at a refused request: no ride is advanced or read as "undefined"', async () => {
    const result = await runTerminalTwo({});
    expect(result.code).not.toBe(0);
    expect(requests).toEqual(['POST /api/v1/rides']);
    expect(result.stderr).toContain('curl: (22) The requested URL returned error: 401');
    expect(result.stdout).not.toContain('undefined');
  });

  it('stops when the operator CLI fails: no key is made for an empty organization', async () => {
    const result = await runTerminalTwo({ FAIL_ORG_CREATE: '1' });
    expect(result.code).not.toBe(0);
    expect(calls()).toEqual([expect.stringContaining('platform org create')]);
    expect(requests).toEqual([]);
    expect(result.stderr.trim().split('\n').at(-1)).toBe('error: connect ECONNREFUSED 127.0.0.1:5432');
  });
});
