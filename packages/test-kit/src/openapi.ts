import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** What the validator needs to know about one HTTP answer. */
export interface ObservedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
  text: string;
}

export interface Operation {
  method: string;
  path: string;
  statuses: string[];
}

export interface ResponseValidator {
  /** Every problem with the answer as the description sees it; empty when the answer matches. */
  validate(response: ObservedResponse): string[];
  operations(): Operation[];
  /** `METHOD /template STATUS` of every answer validated so far. */
  covered(): Set<string>;
}

export interface ResponseValidatorOptions {
  /**
   * Treat every object schema without `additionalProperties` as closed, so a field the code answers but the description
   * does not name is reported (the description stays open for additive changes; the tests keep it complete).
   */
  closeObjects?: boolean;
}

/** Validates answers against an OpenAPI 3.1 document: the path, method and status must be documented, the body must match. */
export function createResponseValidator(document: Json, options: ResponseValidatorOptions = {}): ResponseValidator {
  const doc = structuredClone(document);
  if (options.closeObjects ?? true) closeObjectSchemas(doc);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', paths: doc.paths, components: doc.components, webhooks: doc.webhooks });
  const compiled = new Map<string, ValidateFunction>();
  const covered = new Set<string>();
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  // Literal paths win over templated ones (`/certificates/batch` before `/certificates/{id}`).
  const templates = Object.keys(paths)
    .map((template) => ({ template, params: (template.match(/\{/g) ?? []).length, pattern: templatePattern(template) }))
    .sort((a, b) => a.params - b.params);

  function schemaAt(pointer: string): ValidateFunction {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  }

  return {
    operations() {
      return templates.flatMap(({ template }) =>
        METHODS.filter((method) => paths[template]![method]).map((method) => ({
          method: method.toUpperCase(),
          path: template,
          statuses: Object.keys(((paths[template]![method] as Json).responses ?? {}) as Json),
        })),
      );
    },
    covered: () => covered,
    validate(response) {
      const method = response.method.toLowerCase();
      const match = templates.find(({ template, pattern }) => pattern.test(response.path) && paths[template]![method]);
      if (!match) return [`${response.method} ${response.path} is not in the description`];
      const operationPointer = `/paths/${escapePointer(match.template)}/${method}`;
      const responses = ((paths[match.template]![method] as Json).responses ?? {}) as Json;
      const status = String(response.status);
      const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in responses);
      const label = `${response.method.toUpperCase()} ${match.template} ${status}`;
      if (!key) return [`${label}: status ${status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
      covered.add(label);
      let pointer = `${operationPointer}/responses/${escapePointer(key)}`;
      let described = responses[key] as Json;
      if (typeof described.$ref === 'string') {
        pointer = described.$ref.slice(1);
        described = resolvePointer(doc, pointer) as Json;
      }
      const content = described.content as Json | undefined;
      if (!content) return response.text.length === 0 ? [] : [`${label}: documented without a body, but answered ${response.text.slice(0, 100)}`];
      const mediaType = (response.contentType ?? '').split(';')[0]!.trim().toLowerCase();
      if (!(mediaType in content)) return [`${label}: content type ${mediaType || '(none)'} is not documented (documented: ${Object.keys(content).join(', ')})`];
      if (!(content[mediaType] as Json).schema) return [];
      const validate = schemaAt(`${pointer}/content/${escapePointer(mediaType)}/schema`);
      const body = mediaType.endsWith('json') ? response.body : response.text;
      if (validate(body)) return [];
      return (validate.errors ?? []).map((error) => {
        const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty?: string }).additionalProperty)})` : '';
        return `${label}: body${error.instancePath} ${error.message ?? 'is invalid'}${extra}`;
      });
    },
  };
}

function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function resolvePointer(document: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, segment) => (node as Json | undefined)?.[segment], document);
}

/** Closes every object schema that names its properties and says nothing about others (except `allOf` branches). */
function closeObjectSchemas(node: unknown, inAllOf = false): void {
  if (Array.isArray(node)) {
    node.forEach((item) => closeObjectSchemas(item, inAllOf));
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const isObjectSchema = typeof schema.properties === 'object' && !('$ref' in schema);
  if (isObjectSchema && !inAllOf && !('additionalProperties' in schema) && !('unevaluatedProperties' in schema)) schema.additionalProperties = false;
  for (const [key, value] of Object.entries(schema)) closeObjectSchemas(value, key === 'allOf');
}

/** The supertest answer as the validator sees it. */
export function observed(res: { status: number; headers: Record<string, string>; body: unknown; text?: string; req: { method: string; path: string } }): ObservedResponse {
  return {
    method: res.req.method,
    path: new URL(res.req.path, 'http://localhost').pathname,
    status: res.status,
    contentType: res.headers['content-type'],
    body: res.body,
    text: res.text ?? '',
  };
}

export interface DocumentCheck {
  valid: boolean;
  errors: unknown[];
}

/**
 * Checks a document against the OpenAPI 3.1 schema (and that its `$ref`s resolve) with @seriousme/openapi-schema-validator.
 * That package is ESM-only, and jest runs our tests as CommonJS, so it runs as its own CLI in a child Node process.
 */
export function validateOpenApiDocument(document: Json): DocumentCheck {
  const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
    const run = spawnSync(process.execPath, [cli, file], { encoding: 'utf8', timeout: 30000 });
    const output = run.stdout.trim();
    if (!output) return { valid: false, errors: [run.stderr.trim() || `validator exited with ${run.status}`] };
    const result = JSON.parse(output) as { valid: boolean; errors?: unknown[] };
    return { valid: result.valid && run.status === 0, errors: result.errors ?? [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
