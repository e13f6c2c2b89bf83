/**
 * `pnpm platform`, run as a child process against this run's own database: each command's effect on the services'
 * tables, and every refusal (usage errors exit 2 with the usage on stderr, failures exit 1 with one line; nothing changes).
 */
import { createHash } from 'node:crypto';
import { createRunDatabase, dropRunDatabase } from '@platform/test-kit';
import { createDatabase, type Knex } from '@platform/service-kit/db';
import { DEV_JWT_SECRET } from '@platform/service-kit/config';
import { verifyJwt, DEFAULT_JWT_ISSUER } from '@platform/service-kit/admin-auth';
import { checkoutDevSecrets } from '../../scripts/dev-secrets';
import { platform, platformJson, root } from './helpers/platform-cli';

jest.setTimeout(300000);

let databaseUrl: string;
let env: NodeJS.ProcessEnv;
let certificate: Knex;
let mobility: Knex;

beforeAll(async () => {
  databaseUrl = await createRunDatabase('platform_cli');
  // JWT_SECRET unset: this checkout's development secret (.data/dev-secrets.json), as `pnpm start` uses.
  env = { DATABASE_URL: databaseUrl, JWT_SECRET: undefined, JWT_ISSUER: undefined, PLATFORM_API_KEY: undefined, NODE_ENV: 'development', SMTP_URL: undefined, PUBLIC_BASE_URL: undefined };
  certificate = createDatabase(databaseUrl, 'certificate', 2);
  mobility = createDatabase(databaseUrl, 'mobility', 2);
});
afterAll(async () => {
  await certificate?.destroy();
  await mobility?.destroy();
  await dropRunDatabase(databaseUrl);
});

interface Created {
  organization: { id: string; name: string };
  owner: { id: string; email: string; name: string | null; role: string };
  invitation: { id: string; email: string; role: string; expires_at: string; invite_url: string; mailed: boolean; mail_problem?: string };
}

async function createOrg(name = 'Acme Rides'): Promise<Created> {
  return platformJson<Created>(['org', 'create', '--name', name, '--owner-email', 'ada@example.com', '--owner-name', 'Ada Obi'], env);
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

describe('pnpm platform', () => {
  it('prints its usage with --help (exit 0), and each command its own', async () => {
    const help = await platform(['--help'], env);
    expect(help.code).toBe(0);
    for (const command of ['status', 'reset', 'org create', 'keys create', 'drivers register', 'drivers code', 'token admin', 'token driver', 'webhooks listen', 'trigger']) expect(help.stdout).toContain(command);
    const one = await platform(['keys', 'create', '--help'], env);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain('usage: pnpm platform keys create --service certificate|mobility --org <id>');
  });

  it('org create makes the organization with the free credits and its owner', async () => {
    const created = await createOrg('Acme Rides');
    expect(created).toEqual({
      organization: { id: expect.stringMatching(/^org_[0-9a-z]{20}$/), name: 'Acme Rides' },
      owner: { id: expect.stringMatching(/^usr_[0-9a-z]{20}$/), email: 'ada@example.com', name: 'Ada Obi', role: 'owner' },
      // No SMTP_URL here: the owner's invitation is not mailed, its link is printed (platform-cli.invitation.test.ts mails it).
      invitation: {
        id: expect.stringMatching(/^inv_/),
        email: 'ada@example.com',
        role: 'owner',
        expires_at: expect.any(String),
        invite_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/dashboard\/invite\/[A-Za-z0-9_-]{20,}$/),
        mailed: false,
        mail_problem: 'no mail configured (SMTP_URL is unset)',
      },
    });
    expect(await certificate('invitations').where({ organization_id: created.organization.id }).select('email', 'role', 'created_by')).toEqual([{ email: 'ada@example.com', role: 'owner', created_by: created.owner.id }]);
    expect(await certificate('organizations').where({ id: created.organization.id }).first('name', 'balance')).toEqual({ name: 'Acme Rides', balance: 10 });
    expect(await certificate('users').where({ organization_id: created.organization.id }).pluck('id')).toEqual([created.owner.id]);

    const human = await platform(['org', 'create', '--name', 'Human Output', '--owner-email', 'bo@example.com'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Created organization org_[0-9a-z]{20} \(Human Output\)\nOwner usr_[0-9a-z]{20} <bo@example.com>\nInvitation to the dashboard not mailed: [^\n]+\n {2}http:\/\/127\.0\.0\.1:8080\/dashboard\/invite\/[A-Za-z0-9_-]{20,}\n$/);
  });

  it('refuses an unknown command, an unknown flag or a missing flag with the usage on stderr and exit 2', async () => {
    const unknown = await platform(['frobnicate'], env);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('unknown command: frobnicate');
    expect(unknown.stderr).toContain('usage: pnpm platform <command>');

    const flag = await platform(['org', 'create', '--name', 'X', '--owner-email', 'a@b.co', '--colour', 'red'], env);
    expect(flag).toMatchObject({ code: 2, stdout: '' });
    expect(flag.stderr).toContain("Unknown option '--colour'");
    expect(flag.stderr).toContain('usage: pnpm platform org create');

    const missing = await platform(['org', 'create', '--name', 'No Owner'], env);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('--owner-email is required');
    const email = await platform(['org', 'create', '--name', 'Bad Owner', '--owner-email', 'not-an-address'], env);
    expect(email.code).toBe(2);
    expect(email.stderr).toContain('--owner-email must be an e-mail address');
    expect(await certificate('organizations').whereIn('name', ['No Owner', 'Bad Owner'])).toHaveLength(0);
  });

  it('keys create prints each service\'s token once and stores only its hash; scopes default to all of mobility\'s', async () => {
    const { organization, owner } = await createOrg();
    const mobilityKey = await platformJson<{ id: string; token: string; scopes: string[] }>(['keys', 'create', '--service', 'mobility', '--org', organization.id, '--scopes', 'rides:write,webhooks:manage', '--name', 'Server'], env);
    expect(mobilityKey).toMatchObject({ service: 'mobility', organization: organization.id, name: 'Server', status: 'active', scopes: ['rides:write', 'webhooks:manage'] });
    expect(mobilityKey.token).toMatch(/^mk_/);
    expect(await mobility('api_keys').where({ id: mobilityKey.id }).first('partner_id', 'created_by', 'token_hash')).toEqual({ partner_id: organization.id, created_by: owner.id, token_hash: hash(mobilityKey.token) });
    expect(await mobility('partners').where({ id: organization.id }).first('name')).toEqual({ name: 'Acme Rides' });

    const all = await platformJson<{ scopes: string[] }>(['keys', 'create', '--service', 'mobility', '--org', organization.id], env);
    expect(all.scopes).toEqual(expect.arrayContaining(['estimates:read', 'rides:write', 'rides:read', 'deliveries:write', 'deliveries:read', 'webhooks:manage']));

    const certificateKey = await platformJson<{ id: string; token: string }>(['keys', 'create', '--service', 'certificate', '--org', organization.id], env);
    expect(certificateKey.token).toMatch(/^ck_/);
    expect(await certificate('api_keys').where({ id: certificateKey.id }).first('organization_id', 'user_id', 'token_hash', 'name')).toEqual({
      organization_id: organization.id,
      user_id: owner.id,
      token_hash: hash(certificateKey.token),
      name: 'CLI key',
    });
  });

  it('keys create refuses an unknown organization (exit 1), bad scopes or service (exit 2); no key is made', async () => {
    const { organization } = await createOrg();
    const before = Number((await mobility('api_keys').count({ n: '*' }))[0]!.n);

    const unknown = await platform(['keys', 'create', '--service', 'mobility', '--org', 'org_doesnotexist'], env);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('organization org_doesnotexist not found');
    expect(await mobility('partners').where({ id: 'org_doesnotexist' })).toHaveLength(0);

    const scope = await platform(['keys', 'create', '--service', 'mobility', '--org', organization.id, '--scopes', 'rides:read,rides:delete'], env);
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('scopes.1');

    const service = await platform(['keys', 'create', '--service', 'payments', '--org', organization.id], env);
    expect(service.code).toBe(2);
    expect(service.stderr).toContain('--service must be certificate or mobility');

    expect(Number((await mobility('api_keys').count({ n: '*' }))[0]!.n)).toBe(before);
  });

  it('keys create --test makes a test-mode mobility key (mk_test_…, livemode false)', async () => {
    const { organization } = await createOrg();
    const key = await platformJson<{ id: string; token: string; livemode: boolean }>(['keys', 'create', '--service', 'mobility', '--org', organization.id, '--test'], env);
    expect(key.token).toMatch(/^mk_test_/);
    expect(key.livemode).toBe(false);
    expect(await mobility('api_keys').where({ id: key.id }).first('livemode', 'partner_id')).toEqual({ livemode: false, partner_id: organization.id });
  });

  it('keys create --test makes a test-mode certificate key (ck_test_…, livemode false); without it the key is live', async () => {
    const { organization, owner } = await createOrg();
    const key = await platformJson<{ id: string; token: string; livemode: boolean }>(['keys', 'create', '--service', 'certificate', '--org', organization.id, '--test'], env);
    expect(key.token).toMatch(/^ck_test_/);
    expect(key.livemode).toBe(false);
    expect(await certificate('api_keys').where({ id: key.id }).first('organization_id', 'user_id', 'livemode')).toEqual({ organization_id: organization.id, user_id: owner.id, livemode: false });
    const live = await platformJson<{ token: string; livemode: boolean }>(['keys', 'create', '--service', 'certificate', '--org', organization.id], env);
    expect([live.token.startsWith('ck_test_'), live.livemode]).toEqual([false, true]);
  });

  it('drivers register adds a driver or courier to the organization\'s fleet with its first sign-in code; drivers code issues a fresh one', async () => {
    const { organization } = await createOrg();
    const driver = await platformJson<{ id: string; activation_code: string }>(['drivers', 'register', '--org', organization.id, '--name', 'Musa Danjuma', '--vehicle', 'Toyota,Corolla,LND-123-XY,Silver'], env);
    expect(driver.activation_code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(driver).toMatchObject({ id: expect.stringMatching(/^drv_/), name: 'Musa Danjuma', kind: 'driver', tier: 'economy', vehicle: { make: 'Toyota', plate: 'LND-123-XY' }, available: false, serves_all_partners: false });
    expect(await mobility('drivers').where({ id: driver.id }).first('organization_id', 'kind')).toEqual({ organization_id: organization.id, kind: 'driver' });

    const courier = await platform(['drivers', 'register', '--org', organization.id, '--name', 'Kemi', '--courier'], env);
    expect(courier.code).toBe(0);
    expect(courier.stdout).toMatch(/^Registered courier drv_[0-9a-z]{20} \(Kemi, moto, /);

    const badVehicle = await platform(['drivers', 'register', '--org', organization.id, '--name', 'No Car', '--vehicle', 'Toyota'], env);
    expect(badVehicle.code).toBe(2);
    expect(badVehicle.stderr).toContain('--vehicle must be "make,model,plate,color"');
    const badTier = await platform(['drivers', 'register', '--org', organization.id, '--name', 'No Tier', '--tier', 'rocket'], env);
    expect(badTier.code).toBe(2);
    expect(badTier.stderr).toContain('tier');
    const unknownOrg = await platform(['drivers', 'register', '--org', 'org_doesnotexist', '--name', 'Nobody'], env);
    expect(unknownOrg.code).toBe(1);
    expect(await mobility('drivers').whereIn('name', ['No Car', 'No Tier', 'Nobody'])).toHaveLength(0);

    const code = await platformJson<{ driver_id: string; activation_code: string; expires_at: string }>(['drivers', 'code', driver.id], env);
    expect(code).toMatchObject({ driver_id: driver.id, activation_code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/) });
    expect(code.activation_code).not.toBe(driver.activation_code);
    expect(new Date(code.expires_at).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const unknownDriver = await platform(['drivers', 'code', 'drv_doesnotexist0000000'], env);
    expect(unknownDriver).toMatchObject({ code: 1, stdout: '' });
    const noId = await platform(['drivers', 'code'], env);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('missing <driver-id>');
  });

  it('token admin and token driver mint tokens the services accept (this checkout\'s dev secret, our issuer, the right audience)', async () => {
    const { organization, owner } = await createOrg('Token Org');
    const admin = await platformJson<{ token: string }>(['token', 'admin', '--org', organization.id, '--role', 'operator', '--ttl', '30m'], env);
    const settings = { secret: checkoutDevSecrets(root).JWT_SECRET, issuer: DEFAULT_JWT_ISSUER };
    expect(settings.secret).not.toBe(DEV_JWT_SECRET);
    expect(() => verifyJwt(admin.token, { ...settings, secret: DEV_JWT_SECRET }, 'admin')).toThrow(); // the published one signs nothing
    const claims = verifyJwt(admin.token, settings, 'admin');
    expect(claims).toMatchObject({ sub: owner.id, org: organization.id, org_name: 'Token Org', role: 'operator' });
    expect(claims.exp! - claims.iat!).toBe(1800);

    const driver = await platformJson<{ id: string }>(['drivers', 'register', '--org', organization.id, '--name', 'Musa'], env);
    const driverToken = await platformJson<{ token: string }>(['token', 'driver', driver.id], env);
    expect(verifyJwt(driverToken.token, settings, 'driver')).toMatchObject({ sub: driver.id, role: 'driver' });

    const role = await platform(['token', 'admin', '--org', organization.id, '--role', 'emperor'], env);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('--role must be one of owner, member, operator, platform_operator');
    const ttl = await platform(['token', 'admin', '--org', organization.id, '--ttl', '13h'], env);
    expect(ttl.code).toBe(2);
    expect(ttl.stderr).toContain('--ttl must be at most 43200 seconds');
    const org = await platform(['token', 'admin', '--org', 'org_doesnotexist'], env);
    expect(org).toMatchObject({ code: 1, stdout: '' });
    expect(org.stderr).toContain('organization org_doesnotexist not found');
    const unknownDriver = await platform(['token', 'driver', 'drv_doesnotexist'], env);
    expect(unknownDriver).toMatchObject({ code: 1, stdout: '' });
    expect(unknownDriver.stderr).toContain('driver drv_doesnotexist not found');
  });

  it('--quiet (-q) prints only the id or secret a command made, for X=$(…) in scripts; refused with --json or where it means nothing', async () => {
    const quiet = async (args: string[], stderr: RegExp = /^$/) => {
      const result = await platform(args, env);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(stderr);
      expect(result.stdout).toMatch(/^\S+\n$/);
      return result.stdout.trim();
    };
    // The owner's invitation link has nowhere else to go without mail: stderr, beside the captured id.
    const organizationId = await quiet(['org', 'create', '--name', 'Quiet Org', '--owner-email', 'q@example.com', '--quiet'], /^Invitation to the dashboard not mailed: .*\n {2}http:\/\/\S+\/dashboard\/invite\/\S+\n$/);
    expect(organizationId).toMatch(/^org_[0-9a-z]{20}$/);
    expect(await certificate('organizations').where({ id: organizationId }).first('name')).toEqual({ name: 'Quiet Org' });

    const token = await quiet(['keys', 'create', '--service', 'mobility', '--org', organizationId, '--test', '-q']);
    expect(token).toMatch(/^mk_test_/);
    expect(await mobility('api_keys').where({ token_hash: hash(token) }).first('livemode', 'partner_id')).toEqual({ livemode: false, partner_id: organizationId });
    const driverId = await quiet(['drivers', 'register', '--org', organizationId, '--name', 'Quiet Driver', '-q']);
    expect(await mobility('drivers').where({ id: driverId }).first('name')).toEqual({ name: 'Quiet Driver' });
    expect(await quiet(['drivers', 'code', driverId, '-q'])).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const settings = { secret: checkoutDevSecrets(root).JWT_SECRET, issuer: DEFAULT_JWT_ISSUER };
    expect(verifyJwt(await quiet(['token', 'admin', '--org', organizationId, '-q']), settings, 'admin')).toMatchObject({ org: organizationId, role: 'owner' });
    expect(verifyJwt(await quiet(['token', 'driver', driverId, '-q']), settings, 'driver')).toMatchObject({ sub: driverId });

    const organizations = await certificate('organizations').count<{ count: string }[]>('* as count');
    const both = await platform(['org', 'create', '--name', 'Both', '--owner-email', 'b@example.com', '--quiet', '--json'], env);
    expect(both).toMatchObject({ code: 2, stdout: '' });
    expect(both.stderr).toContain('--json and --quiet exclude each other');
    expect(await certificate('organizations').count<{ count: string }[]>('* as count')).toEqual(organizations);
    const listen = await platform(['webhooks', 'listen', '--key', 'mk_abc', '--quiet'], env);
    expect(listen).toMatchObject({ code: 2, stdout: '' });
    expect(listen.stderr).toContain("Unknown option '--quiet'");
    const help = await platform(['keys', 'create', '--help'], env);
    expect(help.stdout).toContain('--quiet (-q) prints only the token (ck_…, ck_test_…, mk_… or mk_test_…)');
  });

  it('webhooks listen refuses a key that is not a mobility key (exit 2) and an API it cannot reach (exit 1)', async () => {
    const notMobility = await platform(['webhooks', 'listen', '--key', 'ck_abc'], env);
    expect(notMobility.code).toBe(2);
    expect(notMobility.stderr).toContain('--key must be a mobility key');
    const missing = await platform(['webhooks', 'listen'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--key is required');
    // The key from PLATFORM_API_KEY: it gets as far as calling the API.
    const unreachable = await platform(['webhooks', 'listen', '--url', 'http://127.0.0.1:1'], { ...env, PLATFORM_API_KEY: 'mk_abc' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:1');
  });

  it('certificate credits runs the certificate service\'s own command', async () => {
    const { organization } = await createOrg('Credits Org');
    const credits = await platformJson<{ balance: number }>(['certificate', 'credits', '--org', organization.id], env);
    expect(credits).toEqual({ id: organization.id, name: 'Credits Org', balance: 10 });
  });
});
