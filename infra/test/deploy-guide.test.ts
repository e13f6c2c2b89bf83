/**
 * docs/deploy.md stays the truth an operator can follow without reading code: its secret table is every secret the
 * production configuration refuses to start without (found by starting each process's configuration with one secret
 * left out) and every one it checks for strength; its commands make values production accepts (they are run here);
 * its Docker section exports exactly what docker-compose.yml requires (`${VAR:?…}`), as docs/operations.md's Docker
 * commands do; and its Kubernetes Secret holds exactly the keys the manifests read.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '@platform/service-kit/config';
import { gatewayConfigSchema } from '../../gateway/src/config';
import { certificateConfigSchema } from '../../services/certificate/src/config';
import { mobilityConfigSchema } from '../../services/mobility/src/config';
import { createEndpointSecretCipher } from '../../services/mobility/src/features/webhook-dispatch/endpoint-secret-cipher';
import { jobSecretsFrom } from '../../services/mobility/src/platform/job-secrets';
import { variablesOf } from './helpers/config-variables';
import { sectionOf } from './helpers/docs-tables';
import { loadManifests, root, type Container, type Manifest } from './helpers/manifests';
import { codeBlocks } from './helpers/markdown';

const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const guide = read('docs/deploy.md');

/** The raw text under a `## heading` (code blocks kept), up to the next heading of that level or higher. */
function rawSection(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`docs/deploy.md has no "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

interface SecretRow {
  name: string;
  /** The "Production without it" cell. */
  without: string;
  /** The "Make it with" cell's first inline code (a command or a URL template), if any. */
  make?: string;
}

/** The Secrets table: one row per secret, its first cell the variable. */
function secretRows(): SecretRow[] {
  return sectionOf(guide, 'Secrets')
    .split('\n')
    .filter((line) => /^\| `[A-Z0-9_]+` \|/.test(line))
    .map((line) => {
      const [, name, without, make] = line.split('|').map((cell) => cell.trim());
      return { name: /`([A-Z0-9_]+)`/.exec(name!)![1]!, without: without!, ...(/`([^`]+)`/.exec(make!) ? { make: /`([^`]+)`/.exec(make!)![1]! } : {}) };
    });
}

const rows = secretRows();
const documented = rows.map((row) => row.name).sort();
const documentedRequired = rows.filter((row) => row.without.startsWith('refuses to start')).map((row) => row.name).sort();

/** A value as the guide says to make it: its openssl command run, its URL template filled in, else a random key. */
function madeAsDocumented(row: SecretRow): string {
  if (row.make?.startsWith('openssl ')) return execFileSync('bash', ['-c', row.make], { encoding: 'utf8' });
  if (row.make && /^[a-z]+:\/\//.test(row.make)) return row.make.replace(/\b(USER|PASSWORD)\b/g, () => randomBytes(12).toString('hex'));
  return randomBytes(32).toString('base64');
}

const configMap = loadManifests('infra/k8s').find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'platform-config')!.data!;
/** A production environment as the guide builds it: the ConfigMap's settings and every secret of the table. */
const production: Record<string, string> = { ...configMap, ...Object.fromEntries(rows.map((row) => [row.name, madeAsDocumented(row)])) };

/** Every check a production process makes of its configuration at start-up: the schemas, the job secrets, the cipher. */
function refusal(env: Record<string, string>): string | undefined {
  try {
    parseConfig(gatewayConfigSchema, env);
    parseConfig(certificateConfigSchema, env);
    const mobility = parseConfig(mobilityConfigSchema, env);
    jobSecretsFrom(mobility);
    createEndpointSecretCipher(mobility);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const without = (env: Record<string, string>, name: string) => Object.fromEntries(Object.entries(env).filter(([key]) => key !== name));
const schemaVariables = [...new Set([gatewayConfigSchema, certificateConfigSchema, mobilityConfigSchema].flatMap(variablesOf))];

describe('docs/deploy.md, Secrets', () => {
  it('lists the secrets in a table, each once', () => {
    expect(documented.length).toBeGreaterThan(5);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('makes values that production accepts: with the table filled in as it says, every process starts', () => {
    expect(refusal(production)).toBeUndefined();
  });

  it('marks "refuses to start" exactly the secrets a production process cannot start without, each made by one openssl command', () => {
    // Settings the ConfigMap provides are not secrets; every other variable is left out in turn.
    const candidates = [...new Set([...documented, ...schemaVariables])].filter((name) => !(name in configMap));
    const required = candidates.filter((name) => refusal(without(production, name)) !== undefined).sort();
    expect(documentedRequired).toEqual(required);
    for (const row of rows.filter((r) => documentedRequired.includes(r.name))) expect(row.make).toMatch(/^openssl (rand|genpkey) /);
  });

  it('lists every secret a production process checks for strength (a placeholder value is refused)', () => {
    const checked = schemaVariables.filter((name) => /placeholder/.test(refusal({ ...production, [name]: 'replace-with-a-real-value-0123456789abcdefghij' }) ?? ''));
    expect(checked.length).toBeGreaterThan(3);
    expect(checked.filter((name) => !documented.includes(name))).toEqual([]);
  });
});

/** `NAME="$(command)"` pairs of the export lines of a shell block. */
function exportedCommands(code: string): Map<string, string> {
  const exported = new Map<string, string>();
  for (const line of code.split('\n').filter((l) => l.startsWith('export '))) {
    for (const [, name, command] of line.matchAll(/([A-Z][A-Z0-9_]*)="\$\(([^)]+)\)"/g)) exported.set(name!, command!);
  }
  return exported;
}

describe('docker-compose.yml and the Docker commands of the docs', () => {
  const composeRequired = [...read('docker-compose.yml').matchAll(/\$\{(\w+):\?/g)].map((match) => match[1]!);
  const required = [...new Set(composeRequired)].sort();
  /**
   * Compose's own secrets: no process reads them by name; compose builds them into the processes' URLs (the password of
   * the Redis it runs). The Docker Compose section names each with its command: "`NAME` (`command`)".
   */
  const composeOwn = required.filter((name) => !schemaVariables.includes(name));
  const dockerSection = rawSection(guide, 'Docker Compose');
  const composeOwnCommand = (name: string) => new RegExp(`\`${name}\` \\(\`([^\`]+)\`\\)`).exec(dockerSection.replace(/\s+/g, ' '))?.[1];

  it("requires (`${VAR:?…}`) exactly the guide's secrets that production cannot start without, and its Redis's password", () => {
    expect(required.filter((name) => schemaVariables.includes(name))).toEqual(documentedRequired);
    expect(composeOwn).toEqual(['REDIS_PASSWORD']);
  });

  it('makes the Redis password with a command whose output goes into a URL as it is', () => {
    const command = composeOwnCommand('REDIS_PASSWORD');
    expect(command).toMatch(/^openssl rand -hex \d+$/);
    expect(execFileSync('bash', ['-c', command!], { encoding: 'utf8' }).trim()).toMatch(/^[0-9a-f]{64,}$/);
  });

  it("deploy.md's Docker Compose section exports exactly those variables, each with the table's command", () => {
    const blocks = codeBlocks(dockerSection).filter((block) => /docker compose up/.test(block.code));
    expect(blocks).toHaveLength(1);
    const exported = exportedCommands(blocks[0]!.code);
    expect([...exported.keys()].sort()).toEqual(required);
    for (const [name, command] of exported) expect(command).toBe(composeOwn.includes(name) ? composeOwnCommand(name) : rows.find((row) => row.name === name)!.make);
  });

  it('every `docker compose` command of docs/operations.md exports them first (the databases-only line too)', () => {
    const blocks = codeBlocks(read('docs/operations.md')).filter((block) => block.lang === 'sh' && /^docker compose /m.test(block.code));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) expect({ line: block.line, exported: [...exportedCommands(block.code).keys()].sort() }).toEqual({ line: block.line, exported: required });
  });
});

describe('infra/k8s and the Kubernetes section', () => {
  const manifests: Manifest[] = loadManifests('infra/k8s');
  const containers: Container[] = manifests.filter((m) => m.spec?.template).flatMap((m) => [...m.spec.template.spec.containers, ...(m.spec.template.spec.initContainers ?? [])]);
  const refs = containers.flatMap((c) => c.env.map((v) => v.valueFrom?.secretKeyRef).filter((ref) => ref?.name === 'platform-secrets'));
  const keys = [...new Set(refs.map((ref) => ref!.key))].sort();

  it("read from platform-secrets exactly the guide's secrets", () => {
    expect(keys).toEqual(documented);
  });

  it('creates platform-secrets with every key the manifests read, the generated ones with the table’s command', () => {
    const create = codeBlocks(rawSection(guide, 'Kubernetes')).find((block) => block.code.includes('kubectl create secret generic platform-secrets'));
    const named = [...create!.code.matchAll(/--from-(?:literal|file)=([A-Z0-9_]+)=/g)].map((match) => match[1]!).sort();
    expect(named).toEqual(keys);
    for (const [, name, command] of create!.code.matchAll(/--from-literal=([A-Z0-9_]+)="\$\(([^)]+)\)"/g)) expect(command).toBe(rows.find((row) => row.name === name)!.make);
  });

  it("names the keys the manifests mark optional as optional, and only those", () => {
    const optional = [...new Set(refs.filter((ref) => ref!.optional).map((ref) => ref!.key))].sort();
    const sentence = /The manifests mark ([^.]+) optional/.exec(rawSection(guide, 'Kubernetes').replace(/\s+/g, ' '))?.[1] ?? '';
    expect([...sentence.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!).sort()).toEqual(optional);
  });
});
