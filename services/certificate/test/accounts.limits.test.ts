import path from 'node:path';
import { execFile } from 'node:child_process';
import { scryptSync, randomBytes } from 'node:crypto';
import request from 'supertest';
import { newId } from '@platform/service-kit/ids';
import { createTestContext, type TestContext } from './helpers/context';
import { ORIGIN, PASSWORD, signUp, uniqueEmail } from './factories/accounts';
import { expectToMatchRouteTable } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext({ TRUST_PROXY_HOPS: '1', MAX_ORGANIZATIONS_PER_ACCOUNT: '3' });
});
afterAll(() => ctx.close());

const post = (path: string) => request(ctx.app).post(`/accounts/v1${path}`).set('Origin', ORIGIN);
const balanceOf = async (id: string) => Number((await ctx.db('organizations').where({ id }).first('balance')).balance);

describe('organizations and free credits', () => {
  it('an account owns at most MAX_ORGANIZATIONS_PER_ACCOUNT organizations; the free credits come once, to the first', async () => {
    const account = await signUp(ctx, { organization_name: 'Org A' });
    expect(await balanceOf(account.organizationId!)).toBe(10);
    const second = await post('/organizations').set('Authorization', `Bearer ${account.accessToken}`).send({ name: 'Org A' }).expect(201);
    await post('/organizations').set('Authorization', `Bearer ${account.accessToken}`).send({ name: 'Org A' }).expect(201);
    expect(await balanceOf(second.body.organization.id)).toBe(0);
    const fourth = await post('/organizations').set('Authorization', `Bearer ${account.accessToken}`).send({ name: 'Org A' }).expect(409);
    expectToMatchRouteTable(fourth);
    expect(fourth.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(fourth.body.code).toBe('organization_limit_reached');
    const ledger = await ctx.db('credit_ledger as l').join('memberships as m', 'm.organization_id', 'l.organization_id').where('m.account_id', account.accountId).where('l.reason', 'free_plan_grant');
    expect(ledger).toHaveLength(1);
  });

  it('an account that joined by invitation gets its free credits with the first organization it creates', async () => {
    const owner = await signUp(ctx);
    const invitation = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', `Bearer ${owner.accessToken}`).send({ role: 'member' }).expect(201);
    const member = await signUp(ctx, { organization_name: undefined, invitation_token: invitation.body.token });
    const own = await post('/organizations').set('Authorization', `Bearer ${member.accessToken}`).send({ name: 'My Own' }).expect(201);
    expect(await balanceOf(own.body.organization.id)).toBe(10);
    const another = await post('/organizations').set('Authorization', `Bearer ${member.accessToken}`).send({ name: 'Another' }).expect(201);
    expect(await balanceOf(another.body.organization.id)).toBe(0);
  });

  it('the public credential page says whether the issuer name is verified; the operator command verifies it', async () => {
    const account = await signUp(ctx, { organization_name: 'Harvard University' });
    const issued = await request(ctx.app).post('/admin/v1/certificates').set('Authorization', `Bearer ${account.accessToken}`)
      .send({ recipient_name: 'Ada', program_title: 'Engines', issue_date: '2026-05-01' }).expect(201);
    const code = issued.body.verification_code as string;
    const json = await request(ctx.app).get(`/credentials/${code}`).set('Accept', 'application/json').expect(200);
    expectToMatchRouteTable(json);
    expect(json.body).toMatchObject({ organization_name: 'Harvard University', issuer_verified: false });
    const html = await request(ctx.app).get(`/credentials/${code}`).set('Accept', 'text/html').expect(200);
    expect(html.text).toContain('Harvard University (name not verified)');
    expect(html.text).toContain('data-issuer-verified="false"');

    const cli = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', 'organizations', 'verify', account.organizationId!], { cwd: path.resolve(__dirname, '..'), env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL! } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(cli.stderr).toBe('');
    expect(JSON.parse(cli.stdout)).toMatchObject({ id: account.organizationId, name: 'Harvard University' });
    expect((await request(ctx.app).get(`/credentials/${code}`).set('Accept', 'application/json').expect(200)).body.issuer_verified).toBe(true);
    expect((await request(ctx.app).get(`/credentials/${code}`).set('Accept', 'text/html').expect(200)).text).toContain('Harvard University (verified issuer)');
  }, 60_000);
});

describe('password hashing (item 13)', () => {
  it('rehashes a password stored with scrypt N=2^15 at the next successful sign-in, with N=2^17', async () => {
    const email = uniqueEmail('old-hash');
    const salt = randomBytes(16);
    const key = scryptSync(PASSWORD.normalize('NFKC'), salt, 64, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const oldHash = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    await ctx.db('accounts').insert({ id: newId('acc'), email, name: 'Old', password_hash: oldHash, email_verified_at: ctx.db.fn.now() });
    await post('/sessions').set('X-Forwarded-For', '192.0.2.1').send({ email, password: 'not the password' }).expect(401);
    expect((await ctx.db('accounts').where({ email }).first()).password_hash).toBe(oldHash); // a wrong password changes nothing
    await post('/sessions').set('X-Forwarded-For', '192.0.2.1').send({ email, password: PASSWORD }).expect(200);
    const stored = (await ctx.db('accounts').where({ email }).first()).password_hash as string;
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    await post('/sessions').set('X-Forwarded-For', '192.0.2.1').send({ email, password: PASSWORD }).expect(200);
  });

  it('limits sign-ups and password-reset requests per address bucket (IPv6: its /64), apart from sign-ins', async () => {
    const strict = createTestContext({ TRUST_PROXY_HOPS: '1', SIGN_UP_MAX_PER_ADDRESS: '2' });
    try {
      const prefix = `2001:db8:${randomBytes(2).toString('hex')}:1`;
      const ask = (address: string, path: string, body: object) => request(strict.app).post(`/accounts/v1${path}`).set('Origin', ORIGIN).set('X-Forwarded-For', address).send(body);
      await ask(`${prefix}::1`, '/signup', { email: uniqueEmail('burst'), password: PASSWORD, name: 'A' }).expect(202);
      await ask(`${prefix}::2`, '/password-reset', { email: uniqueEmail('burst') }).expect(202);
      const refused = await ask(`${prefix}:ffff:1:2:3`, '/signup', { email: uniqueEmail('burst'), password: PASSWORD, name: 'A' }).expect(429);
      expectToMatchRouteTable(refused);
      expect(refused.body.code).toBe('too_many_attempts');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another bucket is not limited; sign-ins from the limited one still work.
      await ask('2001:db8:ffff:2::1', '/signup', { email: uniqueEmail('burst'), password: PASSWORD, name: 'A' }).expect(202);
      const account = await signUp(ctx);
      await ask(`${prefix}::3`, '/sessions', { email: account.email, password: PASSWORD }).expect(200);
    } finally {
      await strict.close();
    }
  });
});
