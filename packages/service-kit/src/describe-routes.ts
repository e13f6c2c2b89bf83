import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { parse } from 'yaml';
import { z } from 'zod';
import { danglingRefs, exampleRequestBodies, showRequiredScopes, type OpenApiDocument } from './openapi';
import { bodyMedia, responseOf, type ResponseObjectSpec, type RouteSpec } from './route-spec';

/**
 * The prose of a description: `info`, `servers`, `tags`, `security`, `components.securitySchemes`, and per operation
 * (`paths[path][method]`) its `summary`, `description`, `externalDocs`, `deprecated`, prose of its parameters (by
 * `name` and `in`), of its request body and of its responses (`description`, header descriptions, media examples).
 * It holds no schema: one found anywhere fails at start-up, and so does prose for an operation, parameter or status
 * the table does not declare.
 */
export type OverlayDocument = Record<string, unknown> & { openapi: string; info: Record<string, unknown> };

type Json = Record<string, unknown>;

/** Reads a service's overlay (YAML); a missing or malformed file fails at start-up. */
export function loadOverlay(file: string): OverlayDocument {
  const overlay = parse(readFileSync(file, 'utf8')) as unknown;
  if (!overlay || typeof overlay !== 'object' || typeof (overlay as Json).openapi !== 'string' || typeof (overlay as Json).info !== 'object') {
    throw new Error(`${file} is not an OpenAPI overlay (openapi and info are required)`);
  }
  return overlay as OverlayDocument;
}

const REF_BASE = '#/components/schemas/';
const SAFE = Number.MAX_SAFE_INTEGER;
/** String formats zod also writes as a `pattern`; the format alone says it, as a hand-written description would. */
const FORMATS_WITHOUT_PATTERN = new Set(['date-time', 'date', 'time', 'email', 'uuid', 'duration', 'ipv4', 'ipv6']);

function idOf(schema: z.ZodType): string | undefined {
  return z.globalRegistry.get(schema)?.id;
}

/**
 * JSON Schemas of a set of zod schemas: the ones with `.meta({ id })` (and any nested ones with an id) as components,
 * the others inline. Neither side shows the safe-integer range zod gives every integer. Request and response schemas
 * are generated apart: a request keeps everything else zod writes; a response drops what zod adds for its own checks
 * (a pattern beside a date or email format, `propertyNames: {type: string}`) and an integer literal is an `integer`.
 */
class SchemaWriter {
  private readonly registry = z.registry<{ id: string }>();
  private readonly inlineIds = new Map<z.ZodType, string>();
  private readonly added: z.ZodType[] = [];
  private generated: Record<string, Json> | undefined;

  constructor(private readonly side: 'request' | 'response') {}

  add(schema: z.ZodType): void {
    if (this.registry.has(schema) || this.inlineIds.has(schema)) return;
    this.added.push(schema);
    const id = idOf(schema);
    if (id) this.registry.add(schema, { id });
    else {
      const inline = `__inline_${this.inlineIds.size}`;
      this.inlineIds.set(schema, inline);
      this.registry.add(schema, { id: inline });
    }
  }

  private all(): Record<string, Json> {
    if (this.generated) return this.generated;
    const tidy = this.side === 'response';
    const output = z.toJSONSchema(this.registry, {
      io: 'input',
      target: 'draft-2020-12',
      uri: (id) => `${REF_BASE}${id}`,
      override: ({ jsonSchema }) => {
        const json = jsonSchema as Json;
        if (json.minimum === -SAFE) delete json.minimum;
        if (json.maximum === SAFE) delete json.maximum;
        if (!tidy) return;
        if (typeof json.format === 'string' && FORMATS_WITHOUT_PATTERN.has(json.format)) delete json.pattern;
        if (JSON.stringify(json.propertyNames) === '{"type":"string"}') delete json.propertyNames;
        if (json.type === 'number' && Number.isInteger(json.const)) json.type = 'integer';
      },
    }).schemas as Record<string, Json>;
    const { __shared: shared, ...top } = output;
    const all: Record<string, Json> = { ...top, ...((shared?.$defs as Record<string, Json> | undefined) ?? {}) };
    // zod leaves `examples` out of the input side of a schema that transforms; they are put back from its metadata.
    for (const schema of this.added) {
      const { id, examples } = z.globalRegistry.get(schema) ?? {};
      if (id && examples && all[id] && !all[id].examples) all[id].examples = examples;
    }
    this.generated = Object.fromEntries(Object.entries(all).map(([id, json]) => [id, componentOf(tidy ? nullableAsTypeList(json) : json)]));
    return this.generated;
  }

  /** The schema's JSON Schema: a `$ref` for a component, the schema itself for an inline one. */
  schemaOf(schema: z.ZodType): Json {
    const inline = this.inlineIds.get(schema);
    if (inline) return this.all()[inline]!;
    return { $ref: `${REF_BASE}${idOf(schema)!}` };
  }

  components(): Record<string, Json> {
    return Object.fromEntries(Object.entries(this.all()).filter(([id]) => !id.startsWith('__inline_')));
  }
}

/** `anyOf: [{type: 'string', …}, {type: 'null'}]` → `{type: ['string', 'null'], …}` for a scalar type, as zod writes it without a format. */
function nullableAsTypeList(node: unknown): Json {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const json = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, key === 'enum' || key === 'const' || key === 'examples' || key === 'default' ? item : walk(item)])) as Json;
    const branches = json.anyOf;
    if (!Array.isArray(branches) || branches.length !== 2) return json;
    const nullAt = branches.findIndex((branch) => JSON.stringify(branch) === '{"type":"null"}');
    const other = branches[1 - nullAt] as Json | undefined;
    if (nullAt < 0 || !other || typeof other.type !== 'string' || other.type === 'object' || other.type === 'array' || 'enum' in other || 'const' in other) return json;
    const { anyOf: _anyOf, ...rest } = json;
    return { ...other, ...rest, type: [other.type, 'null'] };
  };
  return walk(node) as Json;
}

/** Drops the standalone-document keys and points shared refs at `#/components/schemas/<id>`. */
function componentOf(schema: Json): Json {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== '$schema' && key !== '$id')
        .map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace(/^#\/components\/schemas\/__shared#\/\$defs\//, REF_BASE) : rewrite(value)]),
    );
  };
  return rewrite(schema) as Json;
}

/** One parameter per property of a zod object: its description and the object's first example move to the parameter. */
function parametersOf(schema: z.ZodObject | undefined, place: 'path' | 'query' | 'header' | 'cookie'): Json[] {
  if (!schema) return [];
  const generated = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as Json;
  const id = idOf(schema);
  const json = ((id ? (generated.$defs as Record<string, Json> | undefined)?.[id] : undefined) ?? generated) as Json;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const example = ((json.examples as Json[] | undefined) ?? [])[0] ?? {};
  const defs = (generated.$defs ?? {}) as Record<string, Json>;
  const properties = inlineLocalDefs(json.properties ?? {}, defs) as Record<string, Json>;
  return Object.entries(properties).map(([name, { description, parameterId, ...propertySchema }]) => ({
    name,
    in: place,
    ...(place === 'path' || required.has(name) ? { required: true } : {}),
    ...(description ? { description } : {}),
    schema: propertySchema,
    ...(name in example ? { example: example[name] } : {}),
    ...(typeof parameterId === 'string' ? { [PARAMETER_ID]: parameterId } : {}),
  }));
}

/**
 * A parameter's schema written in full: a named schema nested in it (`.meta({ id })`) comes back from zod as a
 * `#/$defs/<id>` reference into the standalone document zod made, which the description does not contain.
 */
function inlineLocalDefs(node: unknown, defs: Record<string, Json>, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineLocalDefs(item, defs, seen));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const name = ref.slice('#/$defs/'.length);
    const target = defs[name];
    if (!target || seen.has(name)) return node; // left for the dangling-reference check to name
    const { $ref: _ref, ...siblings } = node as Json;
    return { ...(inlineLocalDefs(target, defs, new Set([...seen, name])) as Json), ...siblings };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlineLocalDefs(value, defs, seen)]));
}

/** Where `parametersOf` keeps a parameter's `.meta({ parameterId })` until the operation is written. */
const PARAMETER_ID = Symbol('parameterId');

/** Components several operations share by name: responses, headers, parameters. */
class SharedComponents {
  readonly responses: Record<string, Json> = {};
  readonly headers: Record<string, Json> = {};
  readonly parameters: Record<string, Json> = {};

  /** Writes a named component once (the same name for two different things fails) and returns its `$ref`. */
  ref(kind: 'responses' | 'headers' | 'parameters', id: string, value: Json): Json {
    const existing = this[kind][id];
    if (existing && JSON.stringify(existing) !== JSON.stringify(value)) throw new Error(`two different ${kind} are named ${id}`);
    this[kind][id] = value;
    return { $ref: `#/components/${kind}/${id}` };
  }

  toJSON(): Json {
    return Object.fromEntries((['responses', 'headers', 'parameters'] as const).filter((kind) => Object.keys(this[kind]).length).map((kind) => [kind, this[kind]]));
  }
}

const PROSE_KEYS = ['summary', 'description', 'externalDocs', 'deprecated'] as const;

/** Fails on the first `schema` key of the overlay: shapes belong to the route table. */
function assertNoSchemas(node: unknown, at: string): void {
  if (Array.isArray(node)) return node.forEach((item, index) => assertNoSchemas(item, `${at}/${index}`));
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'schema' || key === 'schemas') throw new Error(`the overlay holds a schema at ${at}/${key}; shapes belong to the route table`);
    assertNoSchemas(value, `${at}/${key}`);
  }
}

export interface DescribeOptions {
  /** Named schemas the description shows though no operation answers them (payloads sent elsewhere, e.g. webhooks). */
  schemas?: z.ZodType[];
}

/**
 * The service's OpenAPI document: operations, parameters, bodies, responses and component schemas from the table;
 * prose from the overlay. Scopes named in an operation's security are shown as `x-required-scope` and a sentence; a JSON
 * request body shows its schema's first example; a `$ref` that resolves nowhere fails.
 */
export function describeRoutes(table: readonly RouteSpec[], overlay: OverlayDocument, options: DescribeOptions = {}): OpenApiDocument {
  assertNoSchemas(overlay, '#');
  const requests = new SchemaWriter('request');
  const responses = new SchemaWriter('response');
  for (const schema of options.schemas ?? []) {
    if (!idOf(schema)) throw new Error('every extra schema of the description needs .meta({ id })');
    responses.add(schema);
  }
  for (const spec of table) {
    for (const schema of Object.values(bodyMedia(spec.body) ?? {})) if (schema) requests.add(schema);
    for (const response of Object.values(spec.responses)) {
      const { content, headers } = responseOf(response);
      for (const schema of Object.values(content ?? {})) if (schema) responses.add(schema);
      for (const header of Object.values(headers ?? {})) responses.add(header.schema);
    }
  }

  const overlayPaths = (overlay.paths ?? {}) as Record<string, Record<string, Json>>;
  const shared = new SharedComponents();
  const seen = new Set<string>();
  const paths: Record<string, Record<string, Json>> = {};
  for (const spec of table) {
    const key = `${spec.method} ${spec.path}`;
    if (seen.has(key)) throw new Error(`the route table declares ${key} twice`);
    seen.add(key);
    const prose = overlayPaths[spec.path]?.[spec.method] ?? {};
    (paths[spec.path] ??= {})[spec.method] = operationOf(spec, prose, requests, responses, shared);
  }
  for (const [path, item] of Object.entries(overlayPaths)) {
    for (const method of Object.keys(item)) {
      if (!seen.has(`${method} ${path}`)) throw new Error(`the overlay describes ${method.toUpperCase()} ${path}, which the route table does not declare`);
    }
  }

  const requestComponents = requests.components();
  const schemas: Record<string, Json> = { ...responses.components(), ...requestComponents };
  const overlayComponents = (overlay.components ?? {}) as Json;
  const document = {
    ...overlay,
    paths,
    components: { ...overlayComponents, ...shared.toJSON(), schemas },
  } as OpenApiDocument;
  exampleRequestBodies(document);
  showRequiredScopes(document);
  const missing = danglingRefs(document);
  if (missing.length) throw new Error(`the description refers to undefined components: ${missing.join(', ')}`);
  return document;
}

function operationOf(spec: RouteSpec, prose: Json, requests: SchemaWriter, responses: SchemaWriter, shared: SharedComponents): Json {
  const parameters = [
    ...parametersOf(spec.params, 'path'),
    ...parametersOf(spec.headers, 'header'),
    ...parametersOf(spec.cookies, 'cookie'),
    ...parametersOf(spec.query, 'query'),
  ];
  for (const described of (prose.parameters as Json[] | undefined) ?? []) {
    const parameter = parameters.find((candidate) => candidate.name === described.name && candidate.in === described.in);
    if (!parameter) throw new Error(`the overlay describes parameter ${String(described.in)} ${String(described.name)} of ${spec.operationId}, which its route does not declare`);
    Object.assign(parameter, described);
    delete (parameter as Record<symbol, unknown>)[PARAMETER_ID]; // an operation's own prose: written inline
  }
  const written = parameters.map((parameter) => {
    const id = (parameter as Record<symbol, unknown>)[PARAMETER_ID];
    delete (parameter as Record<symbol, unknown>)[PARAMETER_ID];
    return typeof id === 'string' ? shared.ref('parameters', id, parameter) : parameter;
  });
  const operation: Json = { operationId: spec.operationId };
  if (spec.tags) operation.tags = spec.tags;
  for (const key of PROSE_KEYS) if (prose[key] !== undefined) operation[key] = prose[key];
  if (spec.security) operation.security = spec.security;
  if (written.length) operation.parameters = written;
  const media = bodyMedia(spec.body);
  if (media) {
    const described = (prose.requestBody ?? {}) as Json;
    const describedContent = (described.content ?? {}) as Record<string, Json>;
    operation.requestBody = {
      ...(described.description ? { description: described.description } : {}),
      ...(spec.bodyOptional ? {} : { required: true }),
      content: Object.fromEntries(Object.entries(media).map(([type, schema]) => [type, { ...(schema ? { schema: requests.schemaOf(schema) } : {}), ...describedContent[type] }])),
    };
  }
  const describedResponses = (prose.responses ?? {}) as Record<string, Json>;
  for (const status of Object.keys(describedResponses)) {
    if (!(status in spec.responses)) throw new Error(`the overlay describes status ${status} of ${spec.operationId}, which its route does not declare`);
  }
  operation.responses = Object.fromEntries(
    Object.entries(spec.responses).map(([status, response]) => {
      const declared = responseOf(response);
      const prose = describedResponses[status];
      const answer = responseObject(Number(status), declared, prose ?? {}, responses, shared);
      return [status, declared.id && !prose ? shared.ref('responses', declared.id, answer) : answer];
    }),
  );
  return operation;
}

function responseObject(status: number, spec: ResponseObjectSpec, prose: Json, writer: SchemaWriter, shared: SharedComponents): Json {
  const described = (prose.content ?? {}) as Record<string, Json>;
  const describedHeaders = (prose.headers ?? {}) as Record<string, Json>;
  const answer: Json = { description: prose.description ?? spec.description ?? STATUS_CODES[status] ?? String(status) };
  if (spec.headers) {
    answer.headers = Object.fromEntries(
      Object.entries(spec.headers).map(([name, header]) => {
        const description = describedHeaders[name]?.description ?? header.description ?? z.globalRegistry.get(header.schema)?.description;
        const written = { ...(description ? { description } : {}), ...(header.required ? { required: true } : {}), schema: withoutDescription(writer.schemaOf(header.schema)) };
        return [name, header.id && !describedHeaders[name] ? shared.ref('headers', header.id, written) : written];
      }),
    );
  }
  if (spec.content) {
    answer.content = Object.fromEntries(
      Object.entries(spec.content).map(([type, schema]) => {
        const example = spec.examples?.[type];
        const examples = spec.namedExamples?.[type];
        return [type, { ...(schema ? { schema: writer.schemaOf(schema) } : {}), ...(example !== undefined ? { example } : {}), ...(examples ? { examples } : {}), ...described[type] }];
      }),
    );
  }
  return answer;
}

function withoutDescription(schema: Json): Json {
  if ('$ref' in schema) return schema;
  const { description: _description, ...rest } = schema;
  return rest;
}
