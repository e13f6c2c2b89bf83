/**
 * The route lists of the docs come from the committed descriptions, so they cannot drift from the route tables.
 *
 * A block of Markdown between `<!-- routes:<service>[:<filter>] -->` and `<!-- /routes -->` is rewritten with one row per
 * operation of `services/<service>/openapi.json` (or `gateway/openapi.json` for `gateway`), in the description's order:
 * method and path, who may call it (security and `x-required-scope`) and its summary. The filter is a comma-separated
 * list; an item starting with `/` keeps the paths under that prefix, any other item keeps the operations of that tag.
 *
 *   pnpm docs:routes            rewrites every stale block (also the last step of `pnpm build:descriptions`)
 *   pnpm docs:routes --check    lists the stale blocks and exits 1 (infra/test/route-lists.test.ts does the same)
 */
import fs from 'node:fs';
import path from 'node:path';

export const REWRITE_COMMAND = 'pnpm docs:routes';

const ROOT = path.resolve(__dirname, '../..');
const OPEN = /^<!-- routes:([a-z-]+)(?::(.*?))? -->$/;
const CLOSE = '<!-- /routes -->';
const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'] as const;

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  'x-required-scope'?: string;
}

export interface Description {
  security?: Record<string, string[]>[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

/** What each security scheme is called in the docs (the gateway's merged description names each service's key). */
const SCHEME_NAMES: Record<string, string> = {
  apiKey: 'key',
  apiKeyHeader: 'key',
  CertificateApiKey: 'key (`ck_…`)',
  MobilityApiKey: 'key (`mk_…`)',
  adminJwt: 'admin JWT',
  driverJwt: 'driver JWT',
};

/** The Markdown files that may hold route blocks: the root README, docs/ and every workspace package's README. */
export function documentsWithBlocks(root = ROOT): string[] {
  const candidates = [
    'README.md',
    'gateway/README.md',
    ...fs
      .readdirSync(path.join(root, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
    ...['services', 'packages'].flatMap((folder) => fs.readdirSync(path.join(root, folder)).map((name) => `${folder}/${name}/README.md`)),
  ];
  return candidates.filter((file) => fs.existsSync(path.join(root, file)) && fs.readFileSync(path.join(root, file), 'utf8').includes('<!-- routes:'));
}

export function descriptionFile(service: string): string {
  return service === 'gateway' ? 'gateway/openapi.json' : `services/${service}/openapi.json`;
}

function loadDescription(service: string, root: string): Description {
  const file = path.join(root, descriptionFile(service));
  if (!fs.existsSync(file)) throw new Error(`no description for routes:${service} (${descriptionFile(service)} is missing)`);
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Description;
}

/** Who may call an operation: `none (public)`, `admin JWT`, `key, \`rides:read\``, alternatives joined by "or". */
export function authOf(operation: Operation, description: Description): string {
  const requirements = operation.security ?? description.security ?? [];
  if (requirements.length === 0) return 'none (public)';
  const names: string[] = [];
  // `X-API-KEY` is the same key in another header: named only when it is the one way in.
  const sameKey = (requirement: Record<string, string[]>): boolean => Object.keys(requirement).join() === 'apiKeyHeader';
  for (const requirement of requirements.length > 1 ? requirements.filter((r) => !sameKey(r)) : requirements) {
    const entries = Object.entries(requirement);
    const name =
      entries.length === 0
        ? 'none'
        : entries
            .map(([scheme, scopes]) => {
              const scope = operation['x-required-scope'] ?? scopes.join(' ');
              return `${SCHEME_NAMES[scheme] ?? scheme}${scope ? `, \`${scope}\`` : ''}`;
            })
            .join(' + ');
    if (!names.includes(name)) names.push(name);
  }
  return names.join(' or ');
}

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

function matches(filter: string | undefined, route: string, operation: Operation): boolean {
  if (!filter) return true;
  return filter
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .some((item) => (item.startsWith('/') ? route === item || route.startsWith(item.endsWith('/') ? item : `${item}/`) : (operation.tags ?? []).includes(item)));
}

/** The generated table of one block (its lines, without the markers). */
export function routeTable(description: Description, filter?: string): string[] {
  const rows: string[] = [];
  for (const [route, item] of Object.entries(description.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || !matches(filter, route, operation)) continue;
      rows.push(`| \`${method.toUpperCase()} ${route}\` | ${authOf(operation, description)} | ${cell(operation.summary ?? '')} |`);
    }
  }
  if (rows.length === 0) throw new Error(`no operation matches the filter "${filter ?? ''}"`);
  return ['| operation | auth / scope | summary |', '|---|---|---|', ...rows];
}

/** The document with every route block rewritten; throws on an unclosed block or an unknown service. */
export function rewriteBlocks(markdown: string, describe: (service: string) => Description): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = OPEN.exec(line.trim());
    out.push(line);
    if (!open) continue;
    const end = lines.findIndex((candidate, j) => j > i && candidate.trim() === CLOSE);
    if (end < 0) throw new Error(`line ${i + 1}: ${line.trim()} has no ${CLOSE}`);
    const [, service = '', filter] = open;
    out.push('', ...routeTable(describe(service), filter), '', lines[end] ?? CLOSE);
    i = end;
  }
  return out.join('\n');
}

export interface StaleBlock {
  file: string;
  expected: string;
}

/** Every document whose blocks differ from what the descriptions say now (with its rewritten text). */
export function staleDocuments(root = ROOT): StaleBlock[] {
  const cache = new Map<string, Description>();
  const describe = (service: string): Description => {
    if (!cache.has(service)) cache.set(service, loadDescription(service, root));
    return cache.get(service) as Description;
  };
  return documentsWithBlocks(root).flatMap((file) => {
    const current = fs.readFileSync(path.join(root, file), 'utf8');
    const expected = rewriteBlocks(current, (service) => describe(service));
    return expected === current ? [] : [{ file, expected }];
  });
}

function main(): void {
  const check = process.argv.includes('--check');
  const stale = staleDocuments();
  if (check) {
    if (stale.length === 0) return;
    console.error(`stale route lists in ${stale.map(({ file }) => file).join(', ')}: run \`${REWRITE_COMMAND}\``);
    process.exitCode = 1;
    return;
  }
  for (const { file, expected } of stale) {
    fs.writeFileSync(path.join(ROOT, file), expected);
    console.log(`rewrote the route lists of ${file}`);
  }
}

if (require.main === module) main();
