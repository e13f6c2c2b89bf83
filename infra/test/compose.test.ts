import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../..');

interface ComposeService {
  working_dir?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
}

const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };

function defaultFromConfig(file: string, pattern: RegExp): string {
  const match = readFileSync(path.join(root, file), 'utf8').match(pattern);
  if (!match) throw new Error(`no default found in ${file}`);
  return match[1]!;
}

describe('docker-compose.yml', () => {
  it('runs Postgres, Redis and the four processes', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['certificate', 'gateway', 'mobility', 'postgres', 'redis', 'worker']);
  });

  it.each([
    ['certificate', 'services/certificate/src/config.ts', /PORT: env\.port\((\d+)\)/],
    ['mobility', 'services/mobility/src/config.ts', /PORT: env\.port\((\d+)\)/],
    ['gateway', 'gateway/src/config.ts', /PORT: env\.port\((\d+)\)/],
  ])('publishes %s on the port its code defaults to', (name, file, pattern) => {
    const port = defaultFromConfig(file, pattern);
    const service = compose.services[name]!;
    expect(service.environment!.PORT).toBe(port);
    expect(service.ports).toContain(`${port}:${port}`);
  });

  it('starts each process from an entry point that exists', () => {
    for (const name of ['certificate', 'mobility', 'worker', 'gateway']) {
      const service = compose.services[name]!;
      const entry = service.command!.at(-1)!;
      const dir = service.working_dir!.replace(/^\/app\//, '');
      expect(() => readFileSync(path.join(root, dir, entry))).not.toThrow();
    }
  });

  it('points the gateway at the services by their compose names and ports', () => {
    const env = compose.services.gateway!.environment!;
    expect(env.CERTIFICATE_URL).toBe('http://certificate:3001');
    expect(env.MOBILITY_URL).toBe('http://mobility:3002');
  });

  it('gives every process the database and Redis of the compose network', () => {
    for (const name of ['certificate', 'mobility', 'worker', 'gateway']) {
      const env = compose.services[name]!.environment!;
      expect(env.DATABASE_URL).toMatch(/@postgres:5432\/partner_platform$/);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
    }
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
