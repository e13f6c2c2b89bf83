import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { parse } from 'yaml';
import { z } from 'zod';
import { danglingRefs, exampleRequestBodies, showRequiredScopes, type OpenApiDocument } from './openapi';

/**
 * A service's route table: every operation declares its method, path, security, parameters, body and every response
 * (status → zod schema) once. The OpenAPI description is built from it (`describeRoutes`), answers are checked against
 * it (`responseConformance`, the tests and `VALIDATE_RESPONSES=1`), and presenters return the inferred response types.
 *
 * The types here name only zod and plain data, never a web framework's, so a service's table can be exported and
 * compiled to declarations without naming another package's dependencies.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A body per media type; `null` documents the media type without a schema (bytes the description does not shape). */
export type MediaSchemas = { [mediaType: string]: z.ZodType | null };

/** A response header: its schema (a `description` in the schema's meta becomes the header's). */
export interface HeaderSpec {
  /** Names a header several responses share: written once under `components/headers/<id>` and referenced. */
  id?: string;
  schema: z.ZodType;
  description?: string;
  required?: boolean;
}

export interface ResponseObjectSpec {
  /** Names a response several operations share: it is written once under `components/responses/<id>` and referenced. */
  id?: string;
  description?: string;
  headers?: Record<string, HeaderSpec>;
  /** Media type → schema; absent for an answer without a body. */
  content?: MediaSchemas;
  /** Media type → one example answer (prose of the description; never checked against traffic). */
  examples?: Record<string, unknown>;
  /** Media type → named examples (`{ name: { summary?, value } }`), when one example is not enough. */
  namedExamples?: Record<string, Record<string, unknown>>;
}

/** A zod schema (a JSON body), a full response, or `null` (no body, e.g. a 204 or 304). */
export type ResponseSpec = z.ZodType | ResponseObjectSpec | null;

export interface RouteSpec {
  /** The operation's id in the description. */
  operationId: string;
  method: HttpMethod;
  /** The full public path in OpenAPI form: `/api/v1/verify/{code}`. */
  path: string;
  tags?: string[];
  /** As in OpenAPI; `[]` for none. A scope listed here is shown as `x-required-scope`. */
  security?: Array<Record<string, string[]>>;
  /** Path parameters; a property with `.meta({ parameterId })` is written once under `components/parameters/<id>`. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the operation reads (`Origin`, `If-None-Match`). */
  headers?: z.ZodObject;
  cookies?: z.ZodObject;
  /** A zod schema (JSON body) or media type → schema. */
  body?: z.ZodType | MediaSchemas;
  /** Whether the body may be left out (default: required). */
  bodyOptional?: boolean;
  responses: Record<number, ResponseSpec>;
}

/** Identity with inference: `route({...})` keeps the literal types of the spec. */
export const route = <R extends RouteSpec>(spec: R): R => spec;

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

/** The response of one status as a full spec, whatever shorthand the table used. */
export function responseOf(spec: ResponseSpec): ResponseObjectSpec {
  if (spec === null) return {};
  if (spec instanceof z.ZodType) return { content: { 'application/json': spec } };
  return spec;
}

function bodyMedia(body: RouteSpec['body']): MediaSchemas | undefined {
  if (body === undefined) return undefined;
  return body instanceof z.ZodType ? { 'application/json': body } : body;
}

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

/** The router `mountRoutes` registers on (an Express router fits). */
export type RouteRegistrar<H> = { [M in HttpMethod]: (path: string, ...handlers: H[]) => unknown };

/** `/a/{id}` → `/a/:id`. */
export function expressPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * Mounts one handler (or a chain) per operation of the table under `prefix` (the part of each path the router is
 * mounted at). A table operation without a handler, or a handler for no operation, fails at start-up.
 */
export function mountRoutes<H>(router: RouteRegistrar<NoInfer<H>>, table: readonly RouteSpec[], handlers: Record<string, H | H[]>, prefix = ''): void {
  const ids = new Set(table.map((spec) => spec.operationId));
  for (const id of Object.keys(handlers)) if (!ids.has(id)) throw new Error(`a handler is given for ${id}, which the route table does not declare`);
  for (const spec of table) {
    const handler = handlers[spec.operationId];
    if (!handler) throw new Error(`no handler for ${spec.operationId}`);
    if (!spec.path.startsWith(prefix)) throw new Error(`${spec.path} is not under ${prefix}`);
    router[spec.method](expressPath(spec.path.slice(prefix.length)) || '/', ...(Array.isArray(handler) ? handler : [handler]));
  }
}
