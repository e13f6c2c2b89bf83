import { sortKeys } from './description-shape';

type Json = Record<string, unknown>;

/**
 * A description shape (from `descriptionShape`) with spellings that mean the same schema written one way, for two
 * descriptions produced by different writers (hand-written YAML and zod):
 * - `allOf` of object schemas is merged into one object (properties, `required`); keywords the parts both set to
 *   different values stay as an `allOf` of those keywords (two `pattern`s, as zod writes a second `.regex()`);
 * - a `const` makes an `enum` beside it redundant;
 * - vacuous keywords go: `propertyNames: {type: string}` (every JSON key is a string), `additionalProperties: true` or
 *   `{}` (anything is allowed anyway) and `properties: {}`.
 * Everything else is left as it is, so a changed type, format, pattern, bound, enum or required list still differs.
 */
export function canonicalShape<T>(shape: T): T {
  return canonical(shape) as T;
}

function canonical(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(canonical);
  if (!node || typeof node !== 'object') return node;
  let schema: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'default') schema[key] = value;
    else schema[key] = canonical(value);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.every((part) => part && typeof part === 'object' && !Array.isArray(part))) {
    const { allOf, ...rest } = schema;
    schema = (allOf as Json[]).reduce<Json>((merged, part) => merge(merged, part), rest);
  }
  if (JSON.stringify(schema.propertyNames) === '{"type":"string"}') delete schema.propertyNames;
  if (schema.additionalProperties === true || isEmptyObject(schema.additionalProperties)) delete schema.additionalProperties;
  if (isEmptyObject(schema.properties)) delete schema.properties;
  if ('const' in schema && Array.isArray(schema.enum)) delete schema.enum;
  return sortKeys(schema);
}

function merge(a: Json, b: Json): Json {
  const out: Json = { ...a };
  const conflicts: Json[] = [];
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) out[key] = value;
    else if (key === 'properties') {
      const properties = { ...(out.properties as Json) };
      for (const [name, property] of Object.entries(value as Json)) {
        properties[name] = name in properties ? canonical(merge(properties[name] as Json, property as Json)) : property;
      }
      out.properties = properties;
    } else if (key === 'required') out.required = [...new Set([...(out.required as string[]), ...(value as string[])])].sort();
    else if (JSON.stringify(sortKeys(out[key])) !== JSON.stringify(sortKeys(value))) {
      conflicts.push({ [key]: out[key] }, { [key]: value });
      delete out[key];
    }
  }
  if (conflicts.length) {
    out.allOf = [...((out.allOf as Json[] | undefined) ?? []), ...conflicts].map(sortKeys).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

