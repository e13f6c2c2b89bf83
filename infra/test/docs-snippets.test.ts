/**
 * The documents a partner reads stay true: every TypeScript block compiles under `--strict` against the built
 * `@platform/client`, every shell block is valid bash and names only pnpm scripts that exist, every relative link
 * reaches an existing file and heading, and the README stays a five-minute read.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { codeBlocks, headingAnchors, inlineCode, pnpmCalls, PNPM_BUILTINS, relativeLinks, type CodeBlock } from './helpers/markdown';

const root = path.resolve(__dirname, '../..');
const README_MAX_LINES = 250;

/** The documents whose snippets are checked (the root README, docs/, the client's README). */
const snippetDocuments = [
  'README.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'packages/client/README.md',
];

/** The documents whose links are checked: the above and every package's and service's README. */
const linkDocuments = [
  ...snippetDocuments,
  ...['services', 'packages'].flatMap((folder) =>
    fs
      .readdirSync(path.join(root, folder))
      .map((name) => `${folder}/${name}/README.md`)
      .filter((file) => fs.existsSync(path.join(root, file)) && !snippetDocuments.includes(file)),
  ),
];

const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

function blocksOf(langs: string[]): { file: string; block: CodeBlock }[] {
  return snippetDocuments.flatMap((file) =>
    codeBlocks(read(file))
      .filter((block) => langs.includes(block.lang))
      .map((block) => ({ file, block })),
  );
}

/** Every workspace package's name and scripts, and the root's under ''. */
function workspaceScripts(): Map<string, Set<string>> {
  const folders = ['.', 'gateway', 'infra', ...['services', 'packages'].flatMap((f) => fs.readdirSync(path.join(root, f)).map((n) => `${f}/${n}`))];
  const scripts = new Map<string, Set<string>>();
  for (const folder of folders) {
    const manifest = path.join(root, folder, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string; scripts?: Record<string, string> };
    scripts.set(folder === '.' ? '' : pkg.name, new Set(Object.keys(pkg.scripts ?? {})));
  }
  return scripts;
}

describe('README.md', () => {
  it(`is at most ${README_MAX_LINES} lines`, () => {
    expect(read('README.md').trimEnd().split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe('TypeScript snippets', () => {
  const snippets = blocksOf(['ts', 'typescript']);

  it('exist (the README and the client README show the client)', () => {
    expect(snippets.map(({ file }) => file)).toEqual(expect.arrayContaining(['docs/api.md', 'packages/client/README.md']));
  });

  it('compile with tsc --strict against the built @platform/client', () => {
    const clientTypes = path.join(root, 'packages/client/dist/index.d.ts');
    if (!fs.existsSync(clientTypes)) throw new Error(`${clientTypes} is missing: run \`pnpm build\` first`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-snippets-'));
    try {
      // One module per snippet (so names never clash); errors are reported at the document's own line.
      const origin = new Map<string, { file: string; line: number }>();
      const files = snippets.map(({ file, block }) => {
        const name = path.join(dir, `${file.replace(/[/.]/g, '_')}_line${block.line}.ts`);
        fs.writeFileSync(name, `${block.code}export {};\n`);
        origin.set(name, { file, line: block.line });
        return name;
      });
      const program = ts.createProgram(files, {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(root, 'node_modules/@types')],
        paths: { '@platform/client': [clientTypes] },
      });
      const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
        const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0]}`;
        const source = diagnostic.file && origin.get(diagnostic.file.fileName);
        if (!diagnostic.file || !source) return message;
        const line = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
        return `${source.file}:${source.line + 1 + line}: ${message}`;
      });
      expect(errors).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shell snippets', () => {
  const snippets = blocksOf(['sh', 'bash', 'shell']);
  const scripts = workspaceScripts();

  it('exist (the two commands and the quick start)', () => {
    expect(snippets.filter(({ file }) => file === 'README.md')).toHaveLength(2);
  });

  it('are valid bash (bash -n)', () => {
    const refused = snippets.flatMap(({ file, block }) => {
      const check = spawnSync('bash', ['-n'], { input: block.code, encoding: 'utf8' });
      return check.status === 0 ? [] : [`${file}:${block.line}: ${check.stderr.trim()}`];
    });
    expect(refused).toEqual([]);
  });

  it('name only pnpm scripts that exist, in the root or in the --filter package (inline `pnpm …` in prose too)', () => {
    const texts = snippetDocuments.flatMap((file) => [
      ...codeBlocks(read(file))
        .filter((block) => ['sh', 'bash', 'shell'].includes(block.lang))
        .map((block) => ({ where: `${file}:${block.line}`, text: block.code })),
      ...inlineCode(read(file)).map((text) => ({ where: `${file} \`${text}\``, text })),
    ]);
    const missing = texts.flatMap(({ where, text }) =>
      pnpmCalls(text)
        .filter(({ command }) => !PNPM_BUILTINS.has(command))
        .filter(({ filter, command }) => !scripts.get(filter ?? '')?.has(command))
        .map(({ filter, command }) => `${where}: pnpm ${filter ? `--filter ${filter} ` : ''}${command}`),
    );
    expect(texts.some(({ text }) => pnpmCalls(text).some(({ filter }) => filter))).toBe(true);
    expect(missing).toEqual([]);
  });
});

describe('relative links', () => {
  it('point at existing files and headings', () => {
    const broken = linkDocuments.flatMap((file) =>
      relativeLinks(read(file)).flatMap(({ target, line }) => {
        const [targetPath = '', anchor] = target.split('#');
        const resolved = targetPath ? path.resolve(path.dirname(path.join(root, file)), decodeURIComponent(targetPath)) : path.join(root, file);
        if (!fs.existsSync(resolved)) return [`${file}:${line}: ${target} (no such file)`];
        if (anchor === undefined || !resolved.endsWith('.md')) return [];
        return headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor) ? [] : [`${file}:${line}: ${target} (no such heading)`];
      }),
    );
    expect(broken).toEqual([]);
  });
});
