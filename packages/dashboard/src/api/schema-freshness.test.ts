// @vitest-environment node
/**
 * src/api/*.schema.ts are generated from the services' built descriptions; a description change without
 * `pnpm --filter @platform/dashboard generate` fails here instead of leaving the dashboard typed against old routes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = path.resolve(packageRoot, '../..');
const descriptions = mkdtempSync(path.join(tmpdir(), 'dashboard-openapi-'));
afterAll(() => rmSync(descriptions, { recursive: true, force: true }));

it('the generated admin API types match the services\' descriptions', () => {
  const written = spawnSync(path.join(repoRoot, 'node_modules/.bin/tsx'), ['--conditions=source', 'scripts/write-openapi-documents.ts', descriptions], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(written.status, written.stderr).toBe(0);
  for (const service of ['certificate', 'mobility']) {
    const check = spawnSync(
      path.join(packageRoot, 'node_modules/.bin/openapi-typescript'),
      [path.join(descriptions, `${service}.json`), '-o', `src/api/${service}.schema.ts`, '--check'],
      { cwd: packageRoot, encoding: 'utf8' },
    );
    expect(check.status, `src/api/${service}.schema.ts is stale: run pnpm --filter @platform/dashboard generate`).toBe(0);
  }
}, 120_000);
