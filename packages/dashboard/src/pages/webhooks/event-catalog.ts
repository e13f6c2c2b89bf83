/**
 * The event catalog, read from the platform's own OpenAPI description (`/openapi.json`, served by the gateway): for each
 * event type the schema of its `data` and an example payload built from that schema, so the catalog cannot drift from it.
 */
type Schema = Record<string, unknown>;

/** The platform's OpenAPI description as the gateway serves it (read once per session: react-query key `['openapi']`). */
export async function loadDescription(): Promise<OpenApiDocument> {
  const response = await fetch('/openapi.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`The API description could not be read (HTTP ${response.status})`);
  return (await response.json()) as OpenApiDocument;
}
export interface OpenApiDocument {
  components: { schemas: Record<string, Schema> };
}

export interface CatalogEntry {
  type: string;
  optIn: boolean;
  schemaName: string;
  schema: unknown;
  example: unknown;
}

/** Which component describes an event type's `data` (as WebhookEvent's description says). */
export function dataSchemaOf(type: string): string {
  if (type === 'ride.location_updated') return 'RideLocationUpdate';
  if (type === 'delivery.courier_location_updated') return 'DeliveryLocationUpdate';
  if (type.startsWith('ride.')) return 'Ride';
  if (type.startsWith('delivery.')) return 'Delivery';
  if (type.startsWith('event_pass_program.')) return 'EventPassProgram';
  return 'EventPassRedemption';
}

const refName = (ref: string) => ref.replace('#/components/schemas/', '');

/** The schema with its `$ref`s written out (to `depth` levels; deeper ones stay references). */
export function resolved(document: OpenApiDocument, schema: unknown, depth = 4): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolved(document, item, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Schema).$ref;
  if (typeof ref === 'string') return depth > 0 ? resolved(document, document.components.schemas[refName(ref)], depth - 1) : schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(document, value, depth)]));
}

const SAMPLE_TIME = '2026-05-01T09:30:00.000Z';

/** A value that satisfies `schema`, made from its examples, enums, constants, formats and id patterns. */
export function exampleOf(document: OpenApiDocument, schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') return exampleOf(document, document.components.schemas[refName(s.$ref)], depth + 1);
  if ('const' in s) return s.const;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if ('example' in s) return s.example;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => exampleOf(document, part, depth + 1) as object));
  const choices = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(choices)) return exampleOf(document, choices.find((c) => (c as Schema).type !== 'null') ?? choices[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([key, value]) => [key, exampleOf(document, value, depth + 1)]));
  }
  if (type === 'array') return [exampleOf(document, s.items, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 0;
  if (type === 'boolean') return true;
  if (type === 'string') {
    if (s.format === 'date-time') return SAMPLE_TIME;
    if (s.format === 'date') return SAMPLE_TIME.slice(0, 10);
    const prefix = typeof s.pattern === 'string' ? /^\^([a-z]+_)$/.exec(s.pattern)?.[1] : undefined;
    return prefix ? `${prefix}01HZX3Q8M4` : 'string';
  }
  return null;
}

/** One entry per event type, in the order given. */
export function catalogOf(document: OpenApiDocument, types: readonly string[], optIn: readonly string[]): CatalogEntry[] {
  return types.map((type) => {
    const schemaName = dataSchemaOf(type);
    const schema = document.components.schemas[schemaName];
    const data = exampleOf(document, schema) as Record<string, unknown>;
    // The example's status matches its event (ride.completed carries a completed ride).
    const status = type.split('.')[1];
    if (data && 'status' in data && (schemaName === 'Ride' || schemaName === 'Delivery')) data.status = status;
    return {
      type,
      optIn: optIn.includes(type),
      schemaName,
      schema: resolved(document, schema),
      example: { id: 'evt_01HZX3Q8M4', type, created_at: SAMPLE_TIME, livemode: true, data },
    };
  });
}
