import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import request from 'supertest';
import { createDatabase, migrateLatest, type Knex } from '@platform/service-kit/db';
import { createLogger } from '@platform/service-kit/logger';
import { createRedis, type Redis } from '@platform/service-kit/redis';
import { parseConfig } from '@platform/service-kit/config';
import { signAdminToken } from '@platform/service-kit/admin-auth';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, newRedisPrefix, redisUrl, runTsToEnd } from '@platform/test-kit';
import { createApp as createCertificateApp } from '../../services/certificate/src/app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../../services/certificate/src/config';
import { migrations as certificateMigrations } from '../../services/certificate/src/db/migrations';
import { buildServices as buildCertificateServices } from '../../services/certificate/src/services';
import { linkToken, startTestMailbox } from '../../services/certificate/test/helpers/mailbox';
import { createApp as createMobilityApp } from '../../services/mobility/src/app';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from '../../services/mobility/src/config';
import { migrations as mobilityMigrations } from '../../services/mobility/src/db/migrations';
import { buildServices as buildMobilityServices } from '../../services/mobility/src/services';
import { loadManifests, root, type Container, type Manifest } from './helpers/manifests';

/**
 * infra/k8s as deployed: every link the services hand out (invitations, credential pages and QR codes, tracking_url)
 * is on PUBLIC_BASE_URL, and dashboard sign-in accepts DASHBOARD_ORIGINS. Without them a production process would
 * link to the development gateway on 127.0.0.1 and refuse every sign-in, so it refuses to start instead.
 */
const manifests = loadManifests('infra/k8s');
const configMap = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'platform-config')!.data!;
const PUBLIC_BASE_URL = configMap.PUBLIC_BASE_URL!;
const PUBLIC_ORIGIN = new URL(PUBLIC_BASE_URL).origin;

function containerOf(kind: string, name: string): Container {
  const manifest = manifests.find((m: Manifest) => m.kind === kind && m.metadata.name === name);
  if (!manifest) throw new Error(`no ${kind} ${name}`);
  return manifest.spec.template.spec.containers[0]!;
}

/** An Ed25519 private key as an operator creates it (`openssl genpkey -algorithm ed25519`): CREDENTIAL_SIGNING_KEY. */
const signingKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** A Secret key's value as an operator creates it: a signing key, an SMTP relay's URL, else 32 random bytes. */
function operatorSecret(name: string): string {
  if (name === 'CREDENTIAL_SIGNING_KEY') return signingKey();
  if (name === 'SMTP_URL') return `smtp://platform:${randomBytes(16).toString('hex')}@smtp.example.com:587`;
  return randomBytes(32).toString('base64');
}

/** The container's environment with ConfigMap references resolved and the Secret's keys filled as an operator would. */
function deployedEnv(kind: string, name: string, database: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of containerOf(kind, name).env) {
    const ref = variable.valueFrom;
    if (variable.value !== undefined) env[variable.name] = variable.value;
    else if (ref?.configMapKeyRef) env[variable.name] = configMap[ref.configMapKeyRef.key]!;
    else if (ref?.secretKeyRef && !ref.secretKeyRef.optional) env[variable.name] = operatorSecret(variable.name);
  }
  return { ...env, DATABASE_URL: database, REDIS_URL: redisUrl() };
}

describe('infra/k8s public addresses', () => {
  it('sets PUBLIC_BASE_URL and DASHBOARD_ORIGINS in the ConfigMap to a placeholder https host, not loopback', () => {
    expect(PUBLIC_BASE_URL).toBe('https://api.example.com');
    expect(configMap.DASHBOARD_ORIGINS).toBe(PUBLIC_ORIGIN);
  });

  it.each([
    ['Deployment', 'certificate', certificateConfigSchema],
    ['Job', 'certificate-migrate', certificateConfigSchema],
    ['Deployment', 'mobility', mobilityConfigSchema],
    ['Deployment', 'worker', mobilityConfigSchema],
    ['Job', 'mobility-migrate', mobilityConfigSchema],
  ] as const)('%s %s loads its production configuration with the public address', (kind, name, schema) => {
    const config = parseConfig(schema, deployedEnv(kind, name, 'postgres://db.internal:5432/platform')) as { NODE_ENV: string; PUBLIC_BASE_URL: string; DASHBOARD_ORIGINS?: string[] };
    expect(config.NODE_ENV).toBe('production');
    expect(config.PUBLIC_BASE_URL).toBe(PUBLIC_BASE_URL);
    if (schema === certificateConfigSchema) expect(config.DASHBOARD_ORIGINS).toEqual([PUBLIC_ORIGIN]);
  });
});

describe('the certificate service as deployed by infra/k8s', () => {
  let database: string;
  let db: Knex;
  let app: ReturnType<typeof createCertificateApp>;
  const mailbox = startTestMailbox();
  beforeAll(async () => {
    database = await createRunDatabase('infra_public_certificate');
    // Sign-up mails a confirmation link: the operator's SMTP server (SMTP_URL) is a real one on loopback here.
    const env = { ...deployedEnv('Deployment', 'certificate', database), SMTP_URL: await mailbox.url };
    const config = parseConfig(certificateConfigSchema, env);
    db = createDatabase(database, CERTIFICATE_SCHEMA, 5);
    await migrateLatest(db, CERTIFICATE_SCHEMA, certificateMigrations);
    const services = buildCertificateServices({ db, config });
    app = createCertificateApp({ db, config, logger: createLogger('certificate', 'silent') }, services);
  });
  afterAll(async () => {
    await db?.destroy();
    await dropRunDatabase(database);
    await mailbox.close();
  });

  const email = `owner.${randomBytes(4).toString('hex')}@example.com`;
  const password = 'correct horse battery staple';

  it('signs up (the mailed link on PUBLIC_BASE_URL) and signs in from the public origin; refuses a foreign origin and the old loopback default with 403 origin_not_allowed', async () => {
    await request(app).post('/accounts/v1/signup').set('Origin', PUBLIC_ORIGIN).send({ email, password, name: 'Ada Lovelace', organization_name: 'Analytical Academy' }).expect(202);
    const mail = mailbox.last(email);
    expect(mail.text).toContain(`${PUBLIC_BASE_URL}/dashboard/verify-email/`);
    await request(app).post('/accounts/v1/verify-email').set('Origin', PUBLIC_ORIGIN).send({ token: linkToken(mail, 'verify-email'), password }).expect(201);
    const signedIn = await request(app).post('/accounts/v1/sessions').set('Origin', PUBLIC_ORIGIN).send({ email, password }).expect(200);
    expect(signedIn.body.access_token).toEqual(expect.any(String));
    for (const origin of ['https://evil.example', 'http://127.0.0.1:8080', 'http://localhost:8080']) {
      const refused = await request(app).post('/accounts/v1/sessions').set('Origin', origin).send({ email, password }).expect(403);
      expect(refused.body.code).toBe('origin_not_allowed');
    }
  });

  it('links invitations on PUBLIC_BASE_URL', async () => {
    const signedIn = await request(app).post('/accounts/v1/sessions').set('Origin', PUBLIC_ORIGIN).send({ email, password }).expect(200);
    const invitation = await request(app).post('/admin/v1/invitations').set('Authorization', `Bearer ${signedIn.body.access_token}`).send({ role: 'member' }).expect(201);
    expect(invitation.body.invite_url).toBe(`${PUBLIC_BASE_URL}/dashboard/invite/${invitation.body.token}`);
  });
});

describe('the mobility service as deployed by infra/k8s', () => {
  let database: string;
  let prefix: string;
  let db: Knex;
  let redis: Redis;
  let services: ReturnType<typeof buildMobilityServices>;
  let app: ReturnType<typeof createMobilityApp>;
  let adminToken: string;
  beforeAll(async () => {
    database = await createRunDatabase('infra_public_mobility');
    prefix = newRedisPrefix('infra_public');
    const config = parseConfig(mobilityConfigSchema, { ...deployedEnv('Deployment', 'mobility', database), REDIS_PREFIX: prefix });
    db = createDatabase(database, MOBILITY_SCHEMA, 5);
    await migrateLatest(db, MOBILITY_SCHEMA, mobilityMigrations);
    redis = createRedis(config.REDIS_URL);
    const logger = createLogger('mobility', 'silent');
    services = buildMobilityServices({ db, redis, config, logger });
    app = createMobilityApp({ db, redis, config, logger }, services);
    const suffix = randomBytes(4).toString('hex');
    adminToken = signAdminToken({ sub: `user_${suffix}`, org: `org_${suffix}`, org_name: 'Courier Co', role: 'owner' }, config.JWT_SECRET, { issuer: config.JWT_ISSUER });
  });
  afterAll(async () => {
    await services?.timers.close();
    await services?.telemetry.close();
    redis?.disconnect();
    await db?.destroy();
    await dropRunDatabase(database);
    await clearRedisPrefix(prefix);
  });

  it("gives a new delivery a tracking_url on PUBLIC_BASE_URL, and that page answers", async () => {
    const key = await request(app).post('/admin/v1/api-keys').set('Authorization', `Bearer ${adminToken}`).send({ name: 'shop', scopes: ['deliveries:write', 'deliveries:read'] }).expect(201);
    const created = await request(app)
      .post('/api/v1/deliveries')
      .set('Authorization', `Bearer ${key.body.token}`)
      .send({
        pickup: { lat: 6.5244, lng: 3.3792, address: '5 Warehouse Lane' },
        dropoff: { lat: 6.5381, lng: 3.3906, address: '12 Recipient Close' },
        sender: { name: 'Shop Owner', phone: '+234 803 111 1111' },
        recipient: { name: 'Chidi Eze', phone: '+234 804 222 2222' },
        weight_tier: 'small',
      })
      .expect(201);
    expect(created.body.tracking_url).toMatch(new RegExp(`^${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/track/[A-Za-z0-9_-]{24}$`));
    const trackingPath = new URL(created.body.tracking_url as string).pathname;
    await request(app).get(trackingPath).expect(200);
  });
});

describe('a production process without a public address', () => {
  const strong = () => randomBytes(32).toString('base64');
  const production = { NODE_ENV: 'production', JWT_SECRET: strong(), WEBHOOK_SECRET_KEY: strong() };

  it.each([
    ['certificate', 'PUBLIC_BASE_URL', 'unset', {}, certificateConfigSchema],
    ['certificate', 'PUBLIC_BASE_URL', '"http://127.0.0.2:8080"', { PUBLIC_BASE_URL: 'http://127.0.0.2:8080' }, certificateConfigSchema],
    ['certificate', 'DASHBOARD_ORIGINS', 'unset', { PUBLIC_BASE_URL }, certificateConfigSchema],
    ['certificate', 'DASHBOARD_ORIGINS', `"${PUBLIC_ORIGIN},http://[::1]:8080"`, { PUBLIC_BASE_URL, DASHBOARD_ORIGINS: `${PUBLIC_ORIGIN},http://[::1]:8080` }, certificateConfigSchema],
    ['mobility', 'PUBLIC_BASE_URL', 'unset', {}, mobilityConfigSchema],
    ['mobility', 'PUBLIC_BASE_URL', '"https://localhost/platform"', { PUBLIC_BASE_URL: 'https://localhost/platform' }, mobilityConfigSchema],
  ] as const)('%s refuses %s (got %s) with one line naming it', (_service, variable, shown, given, schema) => {
    expect(() => parseConfig(schema, { ...production, ...given })).toThrow(
      new RegExp(`^Invalid environment variable ${variable}: must be the public address of the gateway, not loopback \\(127\\.0\\.0\\.1, ::1, localhost\\), when NODE_ENV=production \\(got ${shown.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`),
    );
  });

  it('is accepted with public addresses, or loopback when ALLOW_LOOPBACK_PUBLIC_URLS=true says the platform is only reached on this machine', () => {
    const certificate = { ...production, CREDENTIAL_SIGNING_KEY: signingKey(), ISSUER_KEY_ENCRYPTION_KEY: operatorSecret('ISSUER_KEY_ENCRYPTION_KEY') };
    expect(() => parseConfig(certificateConfigSchema, { ...certificate, PUBLIC_BASE_URL, DASHBOARD_ORIGINS: PUBLIC_ORIGIN })).not.toThrow();
    expect(() => parseConfig(certificateConfigSchema, { ...certificate, ALLOW_LOOPBACK_PUBLIC_URLS: 'true' })).not.toThrow();
    expect(() => parseConfig(mobilityConfigSchema, { ...production, PUBLIC_BASE_URL: 'https://127.example.com' })).not.toThrow();
  });

  it.each([
    ['services/certificate', 'src/server.ts', 'certificate', 'PUBLIC_BASE_URL'],
    ['services/mobility', 'src/worker.ts', 'mobility-worker', 'PUBLIC_BASE_URL'],
  ])('%s %s (%s) exits 1 with one line naming %s', async (dir, entry, processName, variable) => {
    const result = await runTsToEnd(path.join(root, dir), entry, { ...production, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`${processName}: Invalid environment variable ${variable}: must be the public address of the gateway, not loopback (127.0.0.1, ::1, localhost), when NODE_ENV=production (got unset)`);
  });
});
