import { isDeepStrictEqual } from 'node:util';

type Json = Record<string, unknown>;

/** An OpenAPI document as plain JSON data. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };
const COMPONENT_TYPES = ['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export interface ServiceDescription {
  document: OpenApiDocument;
  /** Whether the gateway routes a path template of this document (`/api/v1/verify/{code}`) to this service. */
  exposes: (pathTemplate: string) => boolean;
}

/**
 * One description of what the gateway exposes: each service's paths it exposes (so `/admin/v1`, `/healthz` and the
 * like stay out), with the components they use. A component name two services
 * define differently is prefixed with the service's name on both sides, so neither silently wins.
 */
export function mergeDescriptions(services: ServiceDescription[], info: Json): OpenApiDocument {
  const kept = services.map(({ exposes, document }) => keepExposed(exposes, document));
  const clashes = clashingNames(kept);
  const merged: OpenApiDocument & { components: Record<string, Json> } = {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'This gateway' }],
    tags: [],
    paths: {},
    components: {},
  };
  const tags: Json[] = [];
  const security: Json[] = [];
  for (const service of kept) {
    const renamed = renameComponents(service, clashes);
    // Each service's top-level security (its API key schemes) is one more alternative of the whole API's.
    for (const requirement of (renamed.security as Json[] | undefined) ?? []) if (!security.some((known) => isDeepStrictEqual(known, requirement))) security.push(requirement);
    for (const [path, item] of Object.entries(renamed.paths)) {
      if (merged.paths[path]) throw new Error(`${path} is described by two services`);
      merged.paths[path] = item;
    }
    if (renamed.webhooks) merged.webhooks = { ...(merged.webhooks as Json | undefined), ...(renamed.webhooks as Json) };
    for (const type of COMPONENT_TYPES) {
      const source = (renamed.components as Record<string, Json | undefined> | undefined)?.[type];
      if (source) merged.components[type] = { ...merged.components[type], ...source };
    }
    for (const tag of (renamed.tags as Json[] | undefined) ?? []) if (!tags.some((t) => t.name === tag.name)) tags.push(tag);
  }
  merged.tags = tags;
  if (security.length) merged.security = security;
  return merged;
}

/** The service's document cut down to the gateway's routes and the components they reach. */
function keepExposed(exposes: (pathTemplate: string) => boolean, document: OpenApiDocument): OpenApiDocument {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => exposes(path)));
  const kept: Json = { paths, webhooks: document.webhooks };
  const components = (document.components ?? {}) as Record<string, Json>;
  const reachable = reachableComponents(kept, components);
  const usedSchemes = new Set(collectSecuritySchemes(paths));
  const prunedComponents = Object.fromEntries(
    COMPONENT_TYPES.flatMap((type) => {
      const entries = Object.entries(components[type] ?? {}).filter(([name]) =>
        type === 'securitySchemes' ? usedSchemes.has(name) : reachable.has(`#/components/${type}/${name}`),
      );
      return entries.length ? [[type, Object.fromEntries(entries)]] : [];
    }),
  );
  const usedTags = new Set(operationsOf(paths).flatMap((operation) => (operation.tags as string[] | undefined) ?? []));
  return {
    ...document,
    paths,
    webhooks: document.webhooks,
    components: prunedComponents,
    tags: ((document.tags as Json[] | undefined) ?? []).filter((tag) => usedTags.has(tag.name as string)),
  };
}

function operationsOf(paths: Record<string, Json>): Json[] {
  return Object.values(paths).flatMap((item) => METHODS.flatMap((method) => (item[method] ? [item[method] as Json] : [])));
}

function collectSecuritySchemes(paths: Record<string, Json>): string[] {
  return operationsOf(paths).flatMap((operation) => ((operation.security as Json[] | undefined) ?? []).flatMap((requirement) => Object.keys(requirement)));
}

function reachableComponents(root: unknown, components: Record<string, Json>): Set<string> {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/') && !seen.has(value)) {
        seen.add(value);
        const [, , type, name] = value.split('/');
        visit(components[type!]?.[name!]);
      } else {
        visit(value);
      }
    }
  };
  visit(root);
  return seen;
}

/** `schemas/Error` and the like that two services define differently. */
function clashingNames(documents: OpenApiDocument[]): Set<string> {
  const clashes = new Set<string>();
  const first = new Map<string, unknown>();
  for (const document of documents) {
    for (const [type, entries] of Object.entries((document.components ?? {}) as Record<string, Json>)) {
      for (const [name, value] of Object.entries(entries)) {
        const key = `${type}/${name}`;
        if (first.has(key) && !isDeepStrictEqual(first.get(key), value)) clashes.add(key);
        if (!first.has(key)) first.set(key, value);
      }
    }
  }
  return clashes;
}

function renameComponents(service: OpenApiDocument, clashes: Set<string>): OpenApiDocument {
  const prefix = serviceName(service);
  const newName = (type: string, name: string) => (clashes.has(`${type}/${name}`) ? `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name);
  const rewrite = (node: unknown, parentKey?: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, parentKey));
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) {
          const [, , type, name] = value.split('/');
          return [key, `#/components/${type}/${newName(type!, name!)}`];
        }
        if (parentKey === 'security') return [newName('securitySchemes', key), value];
        return [key, rewrite(value, key)];
      }),
    );
  };
  const components = Object.fromEntries(
    Object.entries((service.components ?? {}) as Record<string, Json>).map(([type, entries]) => [
      type,
      Object.fromEntries(Object.entries(entries).map(([name, value]) => [newName(type, name), rewrite(value)])),
    ]),
  );
  return {
    ...service,
    paths: rewrite(service.paths) as OpenApiDocument['paths'],
    webhooks: rewrite(service.webhooks),
    ...(service.security ? { security: rewrite(service.security, 'security') } : {}),
    components,
  };
}

function serviceName(document: OpenApiDocument): string {
  const title = String((document.info as Json | undefined)?.title ?? 'Service');
  return title.replace(/\s*service$/i, '').replace(/[^A-Za-z0-9]/g, '');
}

/**
 * What the gateway itself may answer on any proxied route: 502 when the service is down, 504 when it does not answer
 * within `UPSTREAM_TIMEOUT_MS`. Added to every operation so clients and docs see them.
 */
export function addGatewayResponses(document: OpenApiDocument): OpenApiDocument {
  const result = structuredClone(document) as OpenApiDocument & { components: Record<string, Json> };
  result.components ??= {};
  result.components.schemas = {
    ...result.components.schemas,
    GatewayError: {
      type: 'object',
      description: 'A Problem Details document (RFC 9457) answered by the gateway itself.',
      required: ['type', 'title', 'status', 'detail', 'error', 'code'],
      properties: {
        type: { type: 'string', format: 'uri' },
        title: { type: 'string' },
        status: { type: 'integer', enum: [502, 504] },
        detail: { type: 'string' },
        error: { type: 'string' },
        code: { type: 'string', enum: ['upstream_unavailable', 'upstream_timeout'] },
      },
    },
  };
  const body = { 'application/problem+json': { schema: { $ref: '#/components/schemas/GatewayError' } } };
  result.components.responses = {
    ...result.components.responses,
    UpstreamUnavailable: { description: 'The service behind this route is down (`upstream_unavailable`); retry later.', content: body },
    UpstreamTimeout: { description: 'The service behind this route did not answer in time (`upstream_timeout`).', content: body },
  };
  for (const operation of operationsOf(result.paths)) {
    const responses = (operation.responses ??= {}) as Json;
    responses['502'] ??= { $ref: '#/components/responses/UpstreamUnavailable' };
    responses['504'] ??= { $ref: '#/components/responses/UpstreamTimeout' };
  }
  return result;
}
