import { z } from 'zod';
import { responseOf, type RouteSpec } from './route-spec';

/** What `responseConformance` needs to know about one answer. */
export interface ObservedAnswer {
  method: string;
  /** The request path without the query string. */
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body (JSON) or its text. */
  body: unknown;
}

interface Matcher {
  spec: RouteSpec;
  pattern: RegExp;
  params: number;
}

/** `/a/{id}/b` → a pattern matching one path segment per parameter. */
export function pathPattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The table's route answering `METHOD path` (a literal path wins over a templated one), if any. */
export function routeMatcher(table: readonly RouteSpec[]): (method: string, path: string) => RouteSpec | undefined {
  const matchers: Matcher[] = table
    .map((spec) => ({ spec, pattern: pathPattern(spec.path), params: (spec.path.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params);
  return (method, path) => matchers.find(({ spec, pattern }) => spec.method === method.toLowerCase() && pattern.test(path))?.spec;
}

/**
 * One conformance check driven by the table: the answer's route and status must be declared, its media type must be
 * one the status declares, and its body must parse with the declared schema and carry no field the schema does not
 * name. Returns every problem found (none: the answer conforms).
 */
export function responseConformance(table: readonly RouteSpec[]): (observed: ObservedAnswer) => string[] {
  const find = routeMatcher(table);
  return (observed) => {
    const spec = find(observed.method, observed.path);
    if (!spec) return [`${observed.method.toUpperCase()} ${observed.path} is not in the route table`];
    const label = `${observed.method.toUpperCase()} ${spec.path} ${observed.status}`;
    const declared = spec.responses[observed.status];
    if (declared === undefined) return [`${label}: status ${observed.status} is not declared (declared: ${Object.keys(spec.responses).join(', ')})`];
    const { content } = responseOf(declared);
    const contentType = headerOf(observed.headers, 'content-type');
    if (!content) return isEmpty(observed.body, contentType) ? [] : [`${label}: declared without a body, but answered ${describeBody(observed.body)}`];
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(mediaType in content)) return [`${label}: content type ${mediaType || '(none)'} is not declared (declared: ${Object.keys(content).join(', ')})`];
    const schema = content[mediaType];
    if (!schema) return [];
    return schemaProblems(schema, observed.body).map((problem) => `${label}: ${problem}`);
  };
}

function headerOf(headers: ObservedAnswer['headers'], name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** No body: nothing, an empty text or buffer, or (as supertest parses an empty answer) `{}` without a content type. */
function isEmpty(body: unknown, contentType: string | undefined): boolean {
  if (body === undefined || body === null || body === '') return true;
  if (Buffer.isBuffer(body)) return body.length === 0;
  return !contentType && typeof body === 'object' && Object.keys(body).length === 0;
}

function describeBody(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (text ?? '').slice(0, 100);
}

/** Problems of a value against a schema: zod's issues, then every field the schema does not name. */
export function schemaProblems(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (!result.success) return result.error.issues.map((issue) => `body${issue.path.length ? '.' : ''}${issue.path.map(String).join('.')} ${issue.message}`);
  return undeclaredFields(schema, value, []).map((path) => `body.${path} is not declared`);
}

type AnyDef = { type: string; innerType?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; in?: z.ZodType; shape?: Record<string, z.ZodType>; catchall?: z.ZodType; getter?: () => z.ZodType; valueType?: z.ZodType; left?: z.ZodType; right?: z.ZodType };

/** Paths of fields present in `value` that no object schema along the way names (objects naming properties are closed unless loose). */
function undeclaredFields(schema: z.ZodType, value: unknown, at: string[]): string[] {
  const def = (schema as unknown as { _zod: { def: AnyDef } })._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return value === null || value === undefined ? [] : undeclaredFields(def.innerType!, value, at);
    case 'pipe':
      return undeclaredFields(def.in!, value, at);
    case 'lazy':
      return undeclaredFields(def.getter!(), value, at);
    case 'array':
      return Array.isArray(value) ? value.flatMap((item, index) => undeclaredFields(def.element!, item, [...at, String(index)])) : [];
    case 'record':
      return value && typeof value === 'object' ? Object.entries(value).flatMap(([key, item]) => undeclaredFields(def.valueType!, item, [...at, key])) : [];
    case 'union': {
      const matching = def.options!.filter((option) => option.safeParse(value).success);
      if (matching.length === 0) return [];
      const candidates = matching.map((option) => undeclaredFields(option, value, at));
      return candidates.reduce((best, next) => (next.length < best.length ? next : best));
    }
    case 'intersection':
      return [];
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
      const shape = def.shape!;
      // An object that names no property says nothing about its fields (`{type: object}`): any field is fine.
      const loose = Object.keys(shape).length === 0 || (def.catchall !== undefined && (def.catchall as unknown as { _zod: { def: AnyDef } })._zod.def.type !== 'never');
      return Object.entries(value).flatMap(([key, item]) => {
        if (key in shape) return undeclaredFields(shape[key]!, item, [...at, key]);
        return loose ? [] : [[...at, key].join('.')];
      });
    }
    default:
      return [];
  }
}

/** The minimal logger the validator middleware writes to. */
export interface ConformanceLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

/** The request and response the validator middleware reads and wraps (an Express request and response fit). */
export interface ValidatedRequest {
  method: string;
  originalUrl?: string;
  url: string;
}
export interface ValidatedResponse {
  statusCode: number;
  getHeaders(): Record<string, string | string[] | number | undefined>;
  json(body: unknown): unknown;
  send(body?: unknown): unknown;
}

/** Whether the dev-mode validator runs: `VALIDATE_RESPONSES=1`. */
export function validateResponsesEnabled(environment: NodeJS.ProcessEnv = process.env): boolean {
  return environment.VALIDATE_RESPONSES === '1';
}

/**
 * Development mode (`VALIDATE_RESPONSES=1`): checks every JSON answer against the table and logs each mismatch as a
 * warning (`response does not match the route table`); the answer itself is sent unchanged. Mount it before the routes.
 */
export function responseValidator(table: readonly RouteSpec[], logger: ConformanceLogger): (req: ValidatedRequest, res: ValidatedResponse, next: () => void) => void {
  const check = responseConformance(table);
  return (req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const path = new URL(req.originalUrl ?? req.url, 'http://localhost').pathname;
      const headers = Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, value === undefined ? undefined : Array.isArray(value) ? value : String(value)]));
      if (!headers['content-type']) headers['content-type'] = 'application/json';
      try {
        const problems = check({ method: req.method, path, status: res.statusCode, headers, body: JSON.parse(JSON.stringify(body ?? null)) as unknown });
        if (problems.length) logger.warn({ method: req.method, path, status: res.statusCode, problems }, 'response does not match the route table');
      } catch (error) {
        logger.warn({ method: req.method, path, error: String(error) }, 'response validation failed');
      }
      return json(body);
    };
    next();
  };
}
