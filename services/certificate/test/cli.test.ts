import path from 'node:path';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { execFile } from 'node:child_process';
import { createTestContext, type TestContext } from './helpers/context';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const serviceDir = path.resolve(__dirname, '..');

function runCli(args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', ...args], { cwd: serviceDir, env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL! } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('operator CLI', () => {
  it('creates a first owner key that works against the public API, then issues a certificate that verifies', async () => {
    const org = `org_cli_${randomBytes(4).toString('hex')}`;
    const key = await runCli(['create-key', '--org', org, '--org-name', 'CLI Academy', '--user', 'alice']);
    expect(key.code).toBe(0);
    const { token } = JSON.parse(key.stdout);
    const credits = await request(ctx.app).get('/api/v1/credits').set('Authorization', `Bearer ${token}`).expect(200);
    expect(credits.body).toEqual({ organization: 'CLI Academy', balance: 10, plan: 'free', livemode: true });

    const issued = await runCli(['issue', '--org', org, '--recipient', 'Ada Lovelace', '--program', 'Engines', '--date', '2026-05-01']);
    expect(issued.code).toBe(0);
    const cert = JSON.parse(issued.stdout);
    const verified = await request(ctx.app).get(`/api/v1/verify/${cert.verification_code}`).set('Authorization', `Bearer ${token}`).expect(200);
    expect(verified.body).toMatchObject({ valid: true, recipient_name: 'Ada Lovelace', organization_name: 'CLI Academy' });
  });

  it('keys create --test makes a ck_test_ key that the public API answers in test mode (livemode false)', async () => {
    const org = `org_cli_${randomBytes(4).toString('hex')}`;
    const key = await runCli(['keys', 'create', '--org', org, '--org-name', 'CLI Test Academy', '--user', 'alice', '--name', 'staging', '--test']);
    expect(key.code).toBe(0);
    const created = JSON.parse(key.stdout);
    expect(created).toMatchObject({ name: 'staging', livemode: false });
    expect(created.token).toMatch(/^ck_test_[0-9A-Za-z]{36}$/);
    expect(await ctx.db('api_keys').where({ id: created.id }).first('organization_id', 'livemode')).toEqual({ organization_id: org, livemode: false });

    const auth = { Authorization: `Bearer ${created.token}` };
    expect((await request(ctx.app).get('/api/v1/credits').set(auth).expect(200)).body).toEqual({ organization: 'CLI Test Academy', balance: 10, plan: 'free', livemode: false });

    // Without --test (and as create-key) the key is live.
    const live = JSON.parse((await runCli(['create-key', '--org', org, '--user', 'alice'])).stdout);
    expect([live.token.startsWith('ck_test_'), live.livemode]).toEqual([false, true]);
  });

  it('refuses a value given to --test (exit 2, usage) and makes no key', async () => {
    const org = `org_cli_${randomBytes(4).toString('hex')}`;
    const result = await runCli(['keys', 'create', '--org', org, '--user', 'alice', '--test=yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage:');
    expect(await ctx.db('api_keys').where({ organization_id: org })).toEqual([]);
  });

  it('says what is wrong with bad input and exits non-zero', async () => {
    const result = await runCli(['issue', '--org', 'nobody', '--recipient', 'A', '--program', 'B', '--date', '2026-99-01']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('issue_date');
    const usage = await runCli(['frobnicate']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage:');
  });
});

describe('operator CLI: first owner', () => {
  it('creates an owner account and organization; the owner signs in to the dashboard with it', async () => {
    const email = `owner.${randomBytes(4).toString('hex')}@example.com`;
    const created = await runCli(['accounts', 'create-owner', '--email', email, '--password', 'a long enough password', '--org-name', 'CLI Owners']);
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toMatchObject({ account: { email }, organization: { name: 'CLI Owners', role: 'owner' } });
    const session = await request(ctx.app).post('/accounts/v1/sessions').set('Origin', 'http://127.0.0.1:8080').send({ email, password: 'a long enough password' }).expect(200);
    expect(session.body.organization).toEqual({ id: output.organization.id, name: 'CLI Owners', role: 'owner' });

    const again = await runCli(['accounts', 'create-owner', '--email', email.toUpperCase(), '--password', 'another password!', '--org-name', 'Twice']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('email_taken');
    const short = await runCli(['accounts', 'create-owner', '--email', `x${email}`, '--password', 'short', '--org-name', 'Short']);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('password');
  });
});
