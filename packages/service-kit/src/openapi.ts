import type { RequestHandler } from 'express';

/** An OpenAPI document: plain JSON data (built from a service's route table, served at `/openapi.json`). */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

type Json = Record<string, unknown>;

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
