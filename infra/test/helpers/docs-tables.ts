/**
 * The reference tables of docs/: the names a Markdown table lists in its first column under a heading, and the lists
 * they are checked against (the config schemas' variables, the ErrorCode enum, the drills `pnpm drill` runs).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ERROR_CODES } from '@platform/service-kit/problem-schema';
import { withoutCodeBlocks } from './markdown';
import { root } from './manifests';

/** The text of a document's section: from the heading whose text is `heading` to the next heading of its level or higher. */
export function sectionOf(markdown: string, heading: string): string {
  const lines = withoutCodeBlocks(markdown).split('\n');
  const start = lines.findIndex((line) => /^#{1,6}\s/.test(line) && line.replace(/^#+\s+/, '').trim() === heading);
  if (start === -1) throw new Error(`no heading "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((line, i) => i > start && new RegExp(`^#{1,${level}}\\s`).test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** Every inline-code span in the first cell of each table row of a text (header and divider rows included, harmlessly). */
export function firstCellCodes(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/**
 * The `ErrorCode` enum of a service: from its hand-written `services/<name>/openapi.yaml` while it has one, else the
 * shared list its route table describes (`ERROR_CODES` of the service kit).
 */
export function errorCodesOf(service: string): string[] {
  const file = path.join(root, 'services', service, 'openapi.yaml');
  if (!existsSync(file)) return [...ERROR_CODES];
  const description = parse(readFileSync(file, 'utf8')) as {
    components: { schemas: { ErrorCode: { enum: string[] } } };
  };
  return description.components.schemas.ErrorCode.enum;
}

/** The drills `pnpm drill` runs: the `file` of each entry of scripts/drill.ts's list (read as text; importing it runs them). */
export function drillNames(): string[] {
  const source = readFileSync(path.join(root, 'scripts/drill.ts'), 'utf8');
  return [...source.matchAll(/\{\s*file:\s*'([^']+)'/g)].map((match) => match[1]!);
}

export const readDoc = (file: string): string => readFileSync(path.join(root, file), 'utf8');
