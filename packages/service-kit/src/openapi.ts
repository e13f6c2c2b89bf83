import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import { parse } from 'yaml';
import { z } from 'zod';

/** An OpenAPI document as parsed from YAML: plain JSON data. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

type Json = Record<string, unknown>;

/** Reads and parses a service's `openapi.yaml`; a missing or broken file fails loudly at start-up, not on first request. */
export function loadOpenApiDocument(file: string): OpenApiDocument {
  const document = parse(readFileSync(file, 'utf8')) as unknown;
  if (!document || typeof document !== 'object' || typeof (document as OpenApiDocument).openapi !== 'string' || typeof (document as OpenApiDocument).paths !== 'object') {
    throw new Error(`${file} is not an OpenAPI document`);
  }
  return document as OpenApiDocument;
}

/**
 * JSON Schemas of request bodies and queries, generated from the zod schemas the routes validate with, keyed by each
 * schema's `.meta({ id })`. They are the only description of a request's shape: the YAML refers to them by
 * `#/components/schemas/<id>`, so the description cannot drift from what the server accepts.
 */
export function requestSchemaComponents(schemas: z.ZodType[]): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const schema of schemas) {
    const id = z.globalRegistry.get(schema)?.id;
    if (!id) throw new Error('every request schema of the description needs .meta({ id })');
    registry.add(schema, { id });
  }
  const generated = z.toJSONSchema(registry, { io: 'input', target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }).schemas;
  // Nested schemas with their own id land in `__shared.$defs`; they become components of their own.
  const { __shared: shared, ...top } = generated as Record<string, Json>;
  const all: Record<string, Json> = { ...top, ...(((shared?.$defs as Record<string, Json> | undefined) ?? {})) };
  // zod leaves `examples` out of the input side of a schema that transforms (`address: null` → absent); they are
  // examples of what is sent, so they are put back from the schema's own metadata.
  for (const schema of schemas) {
    const { id, examples } = z.globalRegistry.get(schema) ?? {};
    if (id && examples && all[id] && !all[id].examples) all[id].examples = examples;
  }
  return Object.fromEntries(Object.entries(all).map(([id, schema]) => [id, componentOf(schema)]));
}

/** Drops the standalone-document keys (`$schema`, `$id`) and points shared refs at `#/components/schemas/<id>`. */
function componentOf(schema: Json): Json {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== '$schema' && key !== '$id')
        .map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace(/^#\/components\/schemas\/__shared#\/\$defs\//, '#/components/schemas/') : rewrite(value)]),
    );
  };
  return rewrite(schema) as Json;
}

/**
 * A service's complete description: its `openapi.yaml` (operations, responses, parameters, prose) plus the request
 * schemas generated from zod. A name defined in both, or a `$ref` that resolves nowhere, fails at start-up.
 */
export function buildOpenApiDocument(file: string, request: { bodies: z.ZodType[]; queries?: z.ZodType[] }): OpenApiDocument {
  const document = loadOpenApiDocument(file);
  const components = ((document.components ??= {}) as Record<string, Json>);
  const schemas = (components.schemas ??= {}) as Json;
  for (const [id, schema] of Object.entries(requestSchemaComponents(request.bodies))) {
    if (id in schemas) throw new Error(`${file} defines schemas/${id}, which the routes' zod schema already describes`);
    schemas[id] = schema;
  }
  expandQuerySchemas(document, request.queries ?? []);
  exampleRequestBodies(document);
  showRequiredScopes(document);
  const missing = danglingRefs(document);
  if (missing.length) throw new Error(`${file} refers to undefined components: ${missing.join(', ')}`);
  return document;
}

/**
 * An operation marked `x-query-schema: <id>` gets one query parameter per property of that zod schema (name, required,
 * description, schema, example), so the query is described from the schema the route parses it with.
 */
function expandQuerySchemas(document: OpenApiDocument, queries: z.ZodType[]): void {
  const byId = new Map(queries.map((schema) => [z.globalRegistry.get(schema)?.id, schema]));
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Json[]) {
      const id = operation?.['x-query-schema'];
      if (typeof id !== 'string') continue;
      const schema = byId.get(id);
      if (!schema) throw new Error(`x-query-schema ${id} is not one of the service's query schemas`);
      const generated = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as Json;
      // A schema with an id comes back as a `$ref` to its own `$defs` entry.
      const json = (((generated.$defs as Record<string, Json> | undefined) ?? {})[id] ?? generated) as Json;
      const required = new Set((json.required as string[] | undefined) ?? []);
      const example = ((json.examples as Json[] | undefined) ?? [])[0] ?? {};
      const parameters = Object.entries((json.properties ?? {}) as Record<string, Json>).map(([name, { description, ...propertySchema }]) => ({
        name,
        in: 'query',
        ...(required.has(name) ? { required: true } : {}),
        ...(description ? { description } : {}),
        schema: propertySchema,
        ...(name in example ? { example: example[name] } : {}),
      }));
      delete operation['x-query-schema'];
      operation.parameters = [...((operation.parameters as Json[] | undefined) ?? []), ...parameters];
    }
  }
}

/** A JSON request body whose schema is a generated one shows that schema's first example (what the docs page sends). */
export function exampleRequestBodies(document: OpenApiDocument): void {
  const schemas = ((document.components as Record<string, Json>).schemas ?? {}) as Record<string, Json>;
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Json[]) {
      const media = ((operation?.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json'];
      const ref = (media?.schema as Json | undefined)?.$ref;
      if (!media || typeof ref !== 'string' || 'example' in media || 'examples' in media) continue;
      const examples = schemas[ref.replace('#/components/schemas/', '')]?.examples as unknown[] | undefined;
      if (examples?.length) media.example = examples[0];
    }
  }
}

/**
 * An operation whose security names scopes shows them where a reader looks: `x-required-scope` and a sentence at the
 * end of its description (renderers do not all show the scopes of a bearer requirement).
 */
export function showRequiredScopes(document: OpenApiDocument): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Json[]) {
      const requirements = operation?.security as Array<Record<string, string[]>> | undefined;
      const scopes = [...new Set((requirements ?? []).flatMap((requirement) => Object.values(requirement).flat()))];
      if (scopes.length === 0) continue;
      operation['x-required-scope'] = scopes.join(' ');
      const sentence = `**Required scope:** ${scopes.map((scope) => `\`${scope}\``).join(', ')}. A key without it is answered 403 \`insufficient_scope\` with the scope in \`X-Accepted-Scopes\`.`;
      const description = typeof operation.description === 'string' ? operation.description.trimEnd() : '';
      operation.description = description ? `${description}\n\n${sentence}` : sentence;
    }
  }
}

export function danglingRefs(document: Json): string[] {
  const missing = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
        const found = value.slice(2).split('/').reduce<unknown>((at, segment) => (at as Json | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document);
        if (found === undefined) missing.add(value);
      } else visit(value);
    }
  };
  visit(document);
  return [...missing];
}

/** `GET /openapi.json`: the description, serialised once. */
export function openApiRoute(document: OpenApiDocument): RequestHandler {
  const body = JSON.stringify(document);
  return (_req, res) => {
    res.type('application/json').send(body);
  };
}
