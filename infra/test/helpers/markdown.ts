/**
 * Just enough Markdown reading for the docs test: fenced code blocks, inline code, relative links, the anchors GitHub
 * gives headings, and the `pnpm` scripts a command line names.
 */

export interface CodeBlock {
  /** The info string's first word (`sh`, `ts`, …), lower case; '' when the fence has none. */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const FENCE = /^(\s*)```\s*([\w+-]*)[^`]*$/;

/** Every fenced (```) block, its lines de-indented by the fence's own indentation (a block inside a list item). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const indent = open[1]?.length ?? 0;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j] ?? '')) {
      const text = lines[j] ?? '';
      body.push(text.slice(Math.min(indent, text.length - text.trimStart().length)));
      j++;
    }
    blocks.push({ lang: (open[2] ?? '').toLowerCase(), code: body.join('\n') + '\n', line: i + 1 });
    i = j;
  }
  return blocks;
}

/** The Markdown with every fenced block's lines blanked (line numbers kept), so prose searches skip code. */
export function withoutCodeBlocks(markdown: string): string {
  const lines = markdown.split('\n');
  let inside = false;
  return lines
    .map((line) => {
      const fence = inside ? /^\s*```\s*$/.test(line) : FENCE.test(line);
      if (fence) inside = !inside;
      return fence || inside ? '' : line;
    })
    .join('\n');
}

/** The inline code spans of the prose (fenced blocks excluded). */
export function inlineCode(markdown: string): string[] {
  return [...withoutCodeBlocks(markdown).matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
}

export interface Link {
  target: string;
  line: number;
}

/** Every `[text](target)` link of the prose whose target is not a URL with a scheme (http:, mailto:, …). */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  withoutCodeBlocks(markdown)
    .split('\n')
    .forEach((text, index) => {
      const prose = text.replace(/`[^`]*`/g, '');
      for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] ?? '';
        if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ target, line: index + 1 });
      }
    });
  return links;
}

/** The anchors GitHub gives a document's headings (github-slugger: lower case, punctuation dropped, spaces to '-'). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (!heading) continue;
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

export interface PnpmCall {
  /** The package named by `--filter`/`-F`, if any. */
  filter?: string;
  command: string;
}

/** pnpm's own commands (not package scripts) that the docs may name. */
export const PNPM_BUILTINS = new Set([
  'add', 'audit', 'bin', 'config', 'create', 'deploy', 'dlx', 'env', 'exec', 'i', 'init', 'install', 'link', 'list', 'ls',
  'outdated', 'pack', 'prune', 'publish', 'rebuild', 'remove', 'root', 'setup', 'store', 'unlink', 'up', 'update', 'why',
]);

/** Every `pnpm …` call in a command text (comments dropped): the script or command it runs, and its `--filter`. */
export function pnpmCalls(commandText: string): PnpmCall[] {
  const calls: PnpmCall[] = [];
  const code = commandText
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .join('\n');
  // `pnpm …` and `./pnpmw …` (the wrapper passes its arguments to pnpm).
  for (const match of code.matchAll(/(?:^|[\s;&|(`])(?:\.\/pnpmw|pnpm)((?:[ \t]+[^\s;&|)`]+)+)/g)) {
    const words = (match[1] ?? '').trim().split(/\s+/);
    let filter: string | undefined;
    let command: string | undefined;
    for (let i = 0; i < words.length && !command; i++) {
      const word = words[i] ?? '';
      if (word === '--filter' || word === '-F') filter = words[++i];
      else if (word.startsWith('--filter=')) filter = word.slice('--filter='.length);
      else if (word.startsWith('-')) continue;
      else if (word === 'run') command = words[i + 1];
      else command = word;
    }
    if (command) calls.push({ ...(filter ? { filter } : {}), command });
  }
  return calls;
}
