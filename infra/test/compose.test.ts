import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { parseConfig } from '@platform/service-kit/config';
import { secretWeakness } from '@platform/service-kit/secret-strength';
import { gatewayConfigSchema } from '../../gateway/src/config';
import { certificateConfigSchema } from '../../services/certificate/src/config';
import { mobilityConfigSchema } from '../../services/mobility/src/config';
import { variablesOf } from './helpers/config-variables';

const root = path.resolve(__dirname, '../..');

interface ComposeService {
  image?: string;
  working_dir?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  read_only?: boolean;
  cap_drop?: string[];
}
type ComposeFile = { services: Record<string, ComposeService> };

const composeFiles = ['docker-compose.yml', 'docker-compose.dev.yml'];
const text = (file: string) => readFileSync(path.join(root, file), 'utf8');
const compose = parse(text('docker-compose.yml'), { merge: true }) as ComposeFile;
const dev = parse(text('docker-compose.dev.yml'), { merge: true }) as ComposeFile;

function defaultFromConfig(file: string, pattern: RegExp): string {
  const match = text(file).match(pattern);
  if (!match) throw new Error(`no default found in ${file}`);
  return match[1]!;
}

/** Each process, the compiled entry the image runs (WORKDIR /app) and the source file it is built from. */
const apps = [
  { name: 'certificate', command: 'node --max-old-space-size=256 /app/certificate/dist/server.js', source: 'services/certificate/src/server.ts', schema: certificateConfigSchema },
  { name: 'mobility', command: 'node /app/mobility/dist/server.js', source: 'services/mobility/src/server.ts', schema: mobilityConfigSchema },
  { name: 'worker', command: 'node /app/mobility/dist/worker.js', source: 'services/mobility/src/worker.ts', schema: mobilityConfigSchema },
  { name: 'gateway', command: 'node /app/gateway/dist/server.js', source: 'gateway/src/server.ts', schema: gatewayConfigSchema },
] as const;

/** The Ed25519 key an operator exports for the certificate service (compose requires it, with no fallback). */
const CREDENTIAL_SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/** The password compose's Redis is started with in these tests (compose requires REDIS_PASSWORD, hex as the docs make it). */
const REDIS_PASSWORD = randomBytes(32).toString('hex');

/**
 * A process's environment as compose would interpolate it with JWT_SECRET (and `exported`) in the shell's environment;
 * every other required variable (`${VAR:?…}`) is exported with a random value (REDIS_PASSWORD with the one above).
 */
function interpolated(name: string, jwtSecret: string, exported: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const shell: Record<string, string> = { REDIS_PASSWORD, ...exported };
  for (const [variable, value] of Object.entries(compose.services[name]!.environment!)) {
    env[variable] = value
      .replace(/\$\{(\w+):?-([^}]*)\}/g, (_whole, from: string, fallback: string) => shell[from] || fallback)
      .replace(/\$\{(\w+):\?[^}]*\}/g, (_whole, from: string) => shell[from] ?? randomBytes(32).toString('base64'));
  }
  env.JWT_SECRET = jwtSecret;
  if ('CREDENTIAL_SIGNING_KEY' in env) env.CREDENTIAL_SIGNING_KEY = exported.CREDENTIAL_SIGNING_KEY ?? CREDENTIAL_SIGNING_KEY;
  return env;
}

describe('docker-compose.yml', () => {
  it('runs Postgres, Redis and the four processes', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['certificate', 'gateway', 'mobility', 'postgres', 'redis', 'worker']);
  });

  it.each(apps)('runs $name as `$command` from /app, built from a source file that exists', ({ name, command, source }) => {
    const service = compose.services[name]!;
    expect(service.command!.join(' ')).toBe(command);
    expect(service.working_dir).toBe('/app');
    expect(existsSync(path.join(root, source))).toBe(true);
  });

  it('publishes only the gateway by default, on 127.0.0.1 at the port its code defaults to', () => {
    const published = Object.entries(compose.services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['gateway']);
    const port = defaultFromConfig('gateway/src/config.ts', /PORT: env\.port\((\d+)\)/);
    expect(compose.services.gateway!.environment!.PORT).toBe(port);
    expect(compose.services.gateway!.ports).toEqual([`127.0.0.1:${port}:${port}`]);
  });

  it.each([
    ['postgres', '5432'],
    ['redis', '6379'],
    ['certificate', defaultFromConfig('services/certificate/src/config.ts', /PORT: env\.port\((\d+)\)/)],
    ['mobility', defaultFromConfig('services/mobility/src/config.ts', /PORT: env\.port\((\d+)\)/)],
  ])('publishes %s on 127.0.0.1:%s only with the development override', (name, port) => {
    expect(compose.services[name]!.ports).toBeUndefined();
    expect(dev.services[name]!.ports).toEqual([`127.0.0.1:${port}:${port}`]);
    if (name !== 'postgres' && name !== 'redis') expect(compose.services[name]!.environment!.PORT).toBe(port);
  });

  it('binds every port of every compose file to 127.0.0.1', () => {
    for (const file of [compose, dev]) {
      for (const service of Object.values(file.services)) for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
    }
  });

  it('requires JWT_SECRET and writes no fallback for any secret', () => {
    for (const { name } of apps) expect(compose.services[name]!.environment!.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?[^}]+\}$/);
    for (const file of composeFiles) {
      expect(text(file)).not.toMatch(/\$\{\w*(SECRET|_KEY|_HASH|PASSWORD)\w*:?-/);
      // Any other fallback in the file must not be usable as a secret either.
      for (const [, fallback] of text(file).matchAll(/\$\{\w+:?-([^}]*)\}/g)) expect(secretWeakness(fallback!)).toBeDefined();
    }
  });

  it.each(apps)('runs $name with NODE_ENV=production: valid with a strong JWT_SECRET, refused with the old public fallback', ({ name, schema }) => {
    expect(compose.services[name]!.environment!.NODE_ENV).toBe('production');
    expect(() => parseConfig(schema, interpolated(name, randomBytes(32).toString('base64')))).not.toThrow();
    if (name !== 'gateway') {
      expect(() => parseConfig(schema, interpolated(name, 'compose-development-secret-change-me'))).toThrow(/^Invalid environment variable JWT_SECRET: /);
    }
  });

  it.each(apps.filter((app) => app.name !== 'gateway'))('gives $name its public address from the environment, http://localhost:8080 by default', ({ name, schema }) => {
    const strong = randomBytes(32).toString('base64');
    const byDefault = parseConfig(schema, interpolated(name, strong)) as { PUBLIC_BASE_URL: string; DASHBOARD_ORIGINS?: string[] };
    expect(byDefault.PUBLIC_BASE_URL).toBe('http://localhost:8080');
    if (name === 'certificate') expect(byDefault.DASHBOARD_ORIGINS).toEqual(['http://localhost:8080']);
    const exported = { PUBLIC_BASE_URL: 'https://platform.example.org', DASHBOARD_ORIGINS: 'https://platform.example.org', ALLOW_LOOPBACK_PUBLIC_URLS: 'false' };
    const behindHostName = parseConfig(schema, interpolated(name, strong, exported)) as { PUBLIC_BASE_URL: string; DASHBOARD_ORIGINS?: string[] };
    expect(behindHostName.PUBLIC_BASE_URL).toBe('https://platform.example.org');
    if (name === 'certificate') expect(behindHostName.DASHBOARD_ORIGINS).toEqual(['https://platform.example.org']);
    // Loopback is allowed only while the file says so (it publishes the gateway on 127.0.0.1 only).
    expect(() => parseConfig(schema, interpolated(name, strong, { ALLOW_LOOPBACK_PUBLIC_URLS: 'false' }))).toThrow(/^Invalid environment variable PUBLIC_BASE_URL: must be the public address of the gateway/);
  });

  it.each(apps)('checks $name with a health check on the port it listens on', ({ name, schema }) => {
    const service = compose.services[name]!;
    const config = parseConfig(schema, interpolated(name, randomBytes(32).toString('base64'))) as { PORT?: number; WORKER_METRICS_PORT?: number };
    const port = name === 'worker' ? config.WORKER_METRICS_PORT : config.PORT;
    expect(port).toBeDefined();
    expect(service.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${port}/healthz`);
  });

  it.each(apps)('runs $name read-only, without capabilities', ({ name }) => {
    expect(compose.services[name]).toMatchObject({ read_only: true, cap_drop: ['ALL'] });
  });

  it('starts the gateway once both databases and both services are healthy', () => {
    expect(compose.services.gateway!.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      certificate: { condition: 'service_healthy' },
      mobility: { condition: 'service_healthy' },
    });
  });

  it('points the gateway at the services by their compose names and ports', () => {
    const env = compose.services.gateway!.environment!;
    expect(env.CERTIFICATE_URL).toBe('http://certificate:3001');
    expect(env.MOBILITY_URL).toBe('http://mobility:3002');
  });

  it.each(apps)('gives $name only variables its config schema reads', ({ name, schema }) => {
    const known = variablesOf(schema);
    expect(Object.keys(compose.services[name]!.environment!).filter((variable) => !known.includes(variable))).toEqual([]);
  });

  it("gives the gateway no database URL, no Postgres password and none of the services' secrets", () => {
    const env = compose.services.gateway!.environment!;
    const serviceSecrets = ['WEBHOOK_SECRET_KEY', 'TRACKING_TOKEN_SECRET', 'PIN_FINGERPRINT_SECRET', 'CREDENTIAL_SIGNING_KEY', 'SMTP_URL'];
    expect(Object.keys(env).filter((variable) => /DATABASE_URL|^GATEWAY_[AB]_/.test(variable) || serviceSecrets.includes(variable))).toEqual([]);
    expect(Object.values(env).filter((value) => /postgres(ql)?:\/\//.test(value))).toEqual([]);
  });

  it.each([
    ['certificate', 'CERTIFICATE_DATABASE_URL', 'certificate_svc'],
    ['mobility', 'MOBILITY_DATABASE_URL', 'mobility_svc'],
    ['worker', 'MOBILITY_DATABASE_URL', 'mobility_svc'],
  ])("connects %s to Postgres as its own role only (%s, %s), never as the superuser", (name, variable, role) => {
    const env = compose.services[name]!.environment!;
    const urls = Object.entries(env).filter(([, value]) => /postgres(ql)?:\/\//.test(value));
    expect(urls.map(([key]) => key)).toEqual([variable]);
    const url = new URL(env[variable]!);
    expect(`${url.username}@${url.host}${url.pathname}`).toBe(`${role}@postgres:5432/partner_platform`);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("gives each service none of the other's secrets", () => {
    for (const name of ['mobility', 'worker']) {
      for (const variable of ['CREDENTIAL_SIGNING_KEY', 'SMTP_URL', 'DASHBOARD_ORIGINS']) expect(compose.services[name]!.environment![variable]).toBeUndefined();
    }
    for (const variable of ['WEBHOOK_SECRET_KEY', 'TRACKING_TOKEN_SECRET', 'PIN_FINGERPRINT_SECRET']) expect(compose.services.certificate!.environment![variable]).toBeUndefined();
  });

  it('runs Redis with a required password (REDIS_PASSWORD, no fallback), from its environment, and checks its health with it', () => {
    const redis = compose.services.redis!;
    expect(redis.environment!.REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?[^}]+\}$/);
    expect(redis.command!.join(' ')).toMatch(/redis-server .*--requirepass "\$\$REDIS_PASSWORD"/);
    // redis-cli exits 0 on NOAUTH: the check must authenticate and look for the answer.
    const check = redis.healthcheck!.test.join(' ');
    expect(check).toContain('REDISCLI_AUTH="$$REDIS_PASSWORD"');
    expect(check).toMatch(/redis-cli ping \| grep -q PONG/);
    // The development override publishes it on 127.0.0.1 and changes nothing else.
    expect(Object.keys(dev.services.redis!)).toEqual(['ports']);
  });

  it.each(apps)("gives $name a REDIS_URL to compose's Redis with its password", ({ name, schema }) => {
    expect(compose.services[name]!.environment!.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379$/);
    const config = parseConfig(schema, interpolated(name, randomBytes(32).toString('base64'))) as { REDIS_URL: string };
    const url = new URL(config.REDIS_URL);
    expect({ host: url.host, password: url.password }).toEqual({ host: 'redis:6379', password: REDIS_PASSWORD });
  });
});

describe('infra/Dockerfile', () => {
  const dockerfile = readFileSync(path.join(root, 'infra/Dockerfile'), 'utf8');
  const copied = [...dockerfile.matchAll(/^COPY\s+(.+)\s+\S+$/gm)].flatMap((m) => m[1]!.split(/\s+/));

  it('copies every file the root install scripts run', () => {
    const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const installTime = ['preinstall', 'install', 'postinstall', 'prepare'].map((name) => scripts[name] ?? '').join(' ');
    for (const file of installTime.match(/scripts\/[\w./-]+/g) ?? []) expect(copied).toContain(file);
  });

  it('copies every workspace folder and never the host node_modules', () => {
    const workspace = readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
    for (const folder of ['packages', 'services', 'gateway']) {
      expect(workspace).toContain(folder);
      expect(copied).toContain(folder);
    }
    expect(readFileSync(path.join(root, '.dockerignore'), 'utf8')).toMatch(/^\*\*\/node_modules$/m);
  });
});
