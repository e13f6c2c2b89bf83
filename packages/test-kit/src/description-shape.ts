type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
/** Prose inside a schema: it says nothing about the shape. */
const SCHEMA_PROSE = new Set(['description', 'title', 'example', 'examples', '$comment']);

/**
 * What a partner's client depends on in a description, in one comparable value: per operation (`METHOD /path`) its
 * operationId, security, parameters (name, in, required, schema), request body (required, media types, schema) and
 * responses (status → headers and media type → schema). Every `$ref` is resolved inline (component names do not
 * matter), keys are sorted, prose inside schemas is dropped, `required` lists are sorted, a nullable written as
 * `anyOf`/`oneOf` with `{type: 'null'}` is written as a type list, and a few spellings of the same constraint are made
 * one (`sameMeaning`, an escaped `/` in a pattern), so two descriptions with the same shapes compare equal.
 */
export function descriptionShape(document: Json): Json {
  const paths = (document.paths ?? {}) as Record<string, Json>;
  const operations: Json = {};
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      operations[`${method.toUpperCase()} ${path}`] = operationShape(document, operation, ((item.parameters as Json[] | undefined) ?? []));
    }
  }
  return sortKeys(operations) as Json;
}

function operationShape(document: Json, operation: Json, pathLevelParameters: Json[]): Json {
  const parameters = [...pathLevelParameters, ...((operation.parameters as Json[] | undefined) ?? [])]
    .map((parameter) => resolve(document, parameter) as Json)
    .map((parameter) => ({ name: parameter.name, in: parameter.in, required: parameter.required === true, schema: schemaShape(document, parameter.schema) }))
    .sort((a, b) => `${String(a.in)} ${String(a.name)}`.localeCompare(`${String(b.in)} ${String(b.name)}`));
  const body = operation.requestBody ? (resolve(document, operation.requestBody) as Json) : undefined;
  const responses = Object.fromEntries(
    Object.entries((operation.responses ?? {}) as Json).map(([status, response]) => {
      const resolved = resolve(document, response) as Json;
      const headers = Object.fromEntries(Object.entries((resolved.headers ?? {}) as Json).map(([name, header]) => [name.toLowerCase(), schemaShape(document, (resolve(document, header) as Json).schema)]));
      return [status, { headers, content: contentShape(document, resolved.content) }];
    }),
  );
  return {
    operationId: operation.operationId,
    security: operation.security ?? null,
    parameters,
    requestBody: body ? { required: body.required === true, content: contentShape(document, body.content) } : null,
    responses,
  };
}

function contentShape(document: Json, content: unknown): Json | null {
  if (!content) return null;
  return Object.fromEntries(Object.entries(content as Json).map(([type, media]) => [type, schemaShape(document, (media as Json).schema)]));
}

function resolve(document: Json, node: unknown, seen = new Set<string>()): unknown {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const ref = (node as Json).$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((at, segment) => (at as Json | undefined)?.[segment], document);
  if (target === undefined) throw new Error(`$ref ${ref} resolves nowhere`);
  const { $ref: _ref, ...siblings } = node as Json;
  return { ...(resolve(document, target, new Set([...seen, ref])) as Json), ...siblings };
}

/** A schema with every `$ref` inlined, prose dropped and nullables in one spelling. */
export function schemaShape(document: Json, schema: unknown, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => schemaShape(document, item, seen));
  if (!schema || typeof schema !== 'object') return schema ?? null;
  const ref = (schema as Json).$ref;
  const nextSeen = typeof ref === 'string' ? [...seen, ref] : seen;
  if (typeof ref === 'string' && seen.includes(ref)) return { $recursive: ref };
  const resolved = resolve(document, schema) as Json;
  const shaped: Json = {};
  for (const [key, value] of Object.entries(resolved)) {
    if (SCHEMA_PROSE.has(key)) continue;
    if (key === 'properties' || key === '$defs' || key === 'patternProperties') {
      shaped[key] = Object.fromEntries(Object.entries(value as Json).map(([name, property]) => [name, schemaShape(document, property, nextSeen)]));
    } else if (key === 'required' && Array.isArray(value)) shaped[key] = [...(value as string[])].sort();
    else if (key === 'type' && Array.isArray(value)) shaped[key] = [...(value as string[])].sort();
    else if (key === 'enum' || key === 'const' || key === 'default') shaped[key] = value;
    else if (key === 'pattern' && typeof value === 'string') shaped[key] = value.replace(/\\\//g, '/');
    else shaped[key] = schemaShape(document, value, nextSeen);
  }
  return nullableAsTypeList(sameMeaning(shaped));
}

/**
 * One spelling for what says the same: a `const` without a type gets its value's type, `additionalProperties: {}` is
 * `true`, empty `properties` and `propertyNames: {type: 'string'}` (every JSON key is a string) are left out.
 */
function sameMeaning(schema: Json): Json {
  const result = { ...schema };
  if ('const' in result && result.type === undefined) {
    const value = result.const;
    result.type = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : value === null ? 'null' : typeof value;
  }
  if (result.additionalProperties && typeof result.additionalProperties === 'object' && Object.keys(result.additionalProperties).length === 0) result.additionalProperties = true;
  if (result.properties && typeof result.properties === 'object' && Object.keys(result.properties).length === 0) delete result.properties;
  if (JSON.stringify(result.propertyNames) === '{"type":"string"}') delete result.propertyNames;
  return result;
}

/** `anyOf`/`oneOf` of one typed branch and `{type: 'null'}` → that branch with `null` in its type list. */
function nullableAsTypeList(schema: Json): Json {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const nullIndex = branches.findIndex((branch) => JSON.stringify(branch) === '{"type":"null"}');
    if (nullIndex < 0) continue;
    const other = branches[1 - nullIndex] as Json;
    if (!other || typeof other.type !== 'string' && !Array.isArray(other.type)) continue;
    const { [key]: _branches, ...rest } = schema;
    const types = [...new Set([...(Array.isArray(other.type) ? (other.type as string[]) : [other.type as string]), 'null'])].sort();
    const merged: Json = { ...rest, ...other, type: types };
    if (Array.isArray(merged.enum) && !merged.enum.includes(null)) merged.enum = [...(merged.enum as unknown[]), null];
    return merged;
  }
  return schema;
}

/** The same JSON with every object's keys in sorted order (so two shapes compare regardless of key order). */
export function sortKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(sortKeys);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.keys(node)
      .sort()
      .map((key) => [key, sortKeys((node as Json)[key])]),
  );
}

/** The differences between two shapes as `path: before → after` lines (empty when equal); for a readable test failure. */
export function shapeDifferences(before: unknown, after: unknown, at = ''): string[] {
  if (JSON.stringify(sortKeys(before)) === JSON.stringify(sortKeys(after))) return [];
  if (before && after && typeof before === 'object' && typeof after === 'object' && !Array.isArray(before) && !Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => shapeDifferences((before as Json)[key], (after as Json)[key], at ? `${at} › ${key}` : key));
  }
  return [`${at}: ${JSON.stringify(before) ?? '(absent)'} → ${JSON.stringify(after) ?? '(absent)'}`];
}
