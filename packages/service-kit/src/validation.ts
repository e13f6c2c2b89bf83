import type { z } from 'zod';
import { ValidationError, type FieldIssue } from './errors';

/**
 * Control characters no text field may hold: C0 (U+0000–U+001F) except tab, line feed and carriage return, DEL and C1
 * (U+007F–U+009F). Postgres refuses NUL in text and JSONB, and none of them belongs in a name, note or description.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters (only tab, line feed and carriage return are allowed)';

export function hasForbiddenControlCharacter(text: string): boolean {
  return FORBIDDEN_CONTROL.test(text);
}

/**
 * Parses input with a zod schema; failures become a 422 with one detail per issue (`pickup.lat`, `certificates.3.issue_date`).
 * Every string in the input (bodies, query strings, CSV rows) is checked for control characters here, so no text field
 * of either service can carry one to the database.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const controlIssues = controlCharacterIssues(input);
  const result = schema.safeParse(input);
  if (result.success && controlIssues.length === 0) return result.data;
  const schemaIssues = result.success ? [] : toFieldIssues(result.error);
  throw new ValidationError(mergeIssues(controlIssues, schemaIssues));
}

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issuePath(issue.path), message: issue.message }));
}

/** One issue per string (object keys included) holding a forbidden control character, at its path in `value`. */
export function controlCharacterIssues(value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  walkStrings(value, [], (path) => issues.push({ path: issuePath(path), message: CONTROL_CHARACTER_MESSAGE }));
  return issues;
}

function walkStrings(value: unknown, path: PropertyKey[], report: (path: PropertyKey[]) => void, depth = 0): void {
  if (depth > 64) return; // JSON bodies are size-limited; this only bounds pathological nesting
  if (typeof value === 'string') {
    if (hasForbiddenControlCharacter(value)) report(path);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => walkStrings(item, [...path, index], report, depth + 1));
    return;
  }
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (hasForbiddenControlCharacter(key)) report([...path, key]);
      else walkStrings(item, [...path, key], report, depth + 1);
    }
  }
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.length ? path.map((part) => (typeof part === 'symbol' ? part.toString() : String(part))).join('.') : '(body)';
}

/** Control-character issues first; a schema issue on the same path adds nothing new. */
function mergeIssues(first: FieldIssue[], second: FieldIssue[]): FieldIssue[] {
  const seen = new Set(first.map((issue) => issue.path));
  return [...first, ...second.filter((issue) => !seen.has(issue.path))];
}
