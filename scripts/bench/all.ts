/**
 * `pnpm bench`: runs every `bench:*` script of the root package.json one after another and writes their tables,
 * each with its same-run baseline and ratio, into bench/results.md with the machine's core count and the commit.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '@platform/bench-kit';

const scripts = Object.keys((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts)
  .filter((name) => name.startsWith('bench:'))
  .sort();

let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
} catch {
  // not a git checkout
}

const sections: string[] = [
  '# Benchmark results',
  '',
  `- commit: ${commit}`,
  `- machine: ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
  `- date: ${new Date().toISOString()}`,
  '',
  'Every figure is measured against a baseline in the same run; ratios, not absolute numbers, are what to compare across machines.',
];
let failed = 0;
for (const script of scripts) {
  process.stdout.write(`\n=== ${script} ===\n`);
  const run = spawnSync('pnpm', ['--silent', 'run', script], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 5 * 60 * 1000 });
  process.stdout.write(run.stdout ?? '');
  if (run.status !== 0) failed++;
  sections.push('', `## ${script}`, '', run.status === 0 ? (run.stdout ?? '').trim() : `failed (exit ${run.status})\n\n${(run.stdout ?? '').trim()}`);
}
mkdirSync(path.join(root, 'bench'), { recursive: true });
writeFileSync(path.join(root, 'bench/results.md'), `${sections.join('\n')}\n`);
process.stdout.write(`\nWrote bench/results.md (${scripts.length} benchmarks, ${failed} failed)\n`);
process.exitCode = failed ? 1 : 0;
