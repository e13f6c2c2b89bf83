import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

interface Stage {
  from: string;
  name?: string;
  lines: string[];
}

/** The Dockerfile's stages: each FROM and the instructions (continuation lines joined) up to the next one. */
function stages(dockerfile: string): Stage[] {
  const result: Stage[] = [];
  for (const line of dockerfile.replace(/\\\n\s*/g, ' ').split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) result.push({ from: from[1]!, name: from[2], lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

describe('infra/Dockerfile', () => {
  const all = stages(readFileSync(path.join(root, 'infra/Dockerfile'), 'utf8'));
  const build = all[0]!;
  const runtime = all.at(-1)!;

  it('builds in a first stage: install, compile, then a production deploy of each process', () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const run = build.lines.filter((l) => l.startsWith('RUN')).join('\n');
    expect(run).toMatch(/pnpm install --frozen-lockfile/);
    expect(run).toMatch(/pnpm build/);
    for (const pkg of ['gateway', 'certificate', 'mobility']) {
      expect(run).toMatch(new RegExp(`pnpm --filter @platform/${pkg} deploy --prod --legacy /app/${pkg}\\b`));
    }
  });

  it('runs from the Node LTS slim image as user node in production, with only the deployed bundles and a health check', () => {
    expect(runtime.from).toBe('node:24-bookworm-slim');
    expect(runtime.lines).toContain('USER node');
    expect(runtime.lines).toContain('ENV NODE_ENV=production');
    // The gateway merges the descriptions the services' builds wrote into their bundles.
    expect(runtime.lines).toContain('ENV CERTIFICATE_OPENAPI_FILE=/app/certificate/dist/openapi.json');
    expect(runtime.lines).toContain('ENV MOBILITY_OPENAPI_FILE=/app/mobility/dist/openapi.json');
    expect(runtime.lines.filter((l) => /^RUN\b/.test(l))).toEqual([]);
    const copies = runtime.lines.filter((l) => l.startsWith('COPY'));
    for (const copy of copies) {
      expect(copy).toMatch(/^COPY --from=build \/app\/(gateway|certificate|mobility|dashboard) \/app\/\1$|^COPY infra\/healthcheck\.cjs /);
    }
    expect(runtime.lines.some((l) => /^HEALTHCHECK .*node.*healthcheck\.cjs/.test(l))).toBe(true);
    expect(runtime.lines).toContain('CMD ["node", "/app/gateway/dist/server.js"]');
  });
});

describe('pnpm deploy --prod of the mobility service (what the image holds)', () => {
  let target: string;
  beforeAll(async () => {
    target = path.join(mkdtempSync(path.join(tmpdir(), 'deploy-')), 'mobility');
    await new Promise<void>((resolve, reject) =>
      execFile('pnpm', ['--filter', '@platform/mobility', 'deploy', '--prod', '--legacy', target], { cwd: root, timeout: 170000 }, (error, _stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
      ),
    );
  }, 180000);
  afterAll(() => rmSync(path.dirname(target), { recursive: true, force: true }));

  it('holds the runtime dependencies and none of the development tools', () => {
    const installed = readdirSync(path.join(target, 'node_modules/.pnpm'));
    for (const runtime of ['bullmq', 'knex', 'express']) expect(installed.some((name) => name.startsWith(`${runtime}@`))).toBe(true);
    for (const tool of ['tsx@', 'jest@', 'eslint@', 'typescript@', '@swc+']) expect(installed.filter((name) => name.startsWith(tool))).toEqual([]);
    expect(existsSync(path.join(target, 'node_modules/@platform/service-kit/package.json'))).toBe(true);
  });
});
