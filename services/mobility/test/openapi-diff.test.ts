import { readFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalShape, descriptionShape, schemaShape, shapeDifferences } from '@platform/test-kit';
import { mobilityOpenApi } from '../src/openapi';

type Json = Record<string, unknown>;

/**
 * The description built from the route table against the one served before it (`fixtures/openapi-baseline.json`):
 * the same paths, operations, parameters, request bodies and responses (status codes, headers, media types, schemas),
 * up to key order, `$ref` names, prose and equivalent spellings of one schema (`canonicalShape`).
 */
/**
 * Differences on purpose, each with its reason (a line of `shapeDifferences`).
 * - The event list has always answered `livemode` on every event (from the outbox row, since test mode); the
 *   hand-written schema did not name it, and the route table's conformance check found it. The answers are unchanged.
 */
const INTENDED = ['GET /api/v1/events', 'GET /admin/v1/events'].flatMap((operation) => [
  `${operation} › responses › 200 › content › application/json › properties › data › items › properties › livemode: (absent) → {"type":"boolean"}`,
  `${operation} › responses › 200 › content › application/json › properties › data › items › required: ["created_at","data","id","object_id","object_type","type"] → ["created_at","data","id","livemode","object_id","object_type","type"]`,
]);

/**
 * Answers added on purpose (the Problem Details shape, written out in full by `shapeDifferences`, so matched by prefix):
 * - Event passes have no test data: a dashboard session in test mode (`?mode=test`, `?livemode=false`) is refused with
 *   403 `test_mode_not_supported` where it used to be served live data; the admin reads now declare that 403.
 */
const ADDED_ANSWERS = ['GET /admin/v1/event-pass-programs', 'GET /admin/v1/event-pass-programs/{id}', 'GET /admin/v1/event-pass-programs/{id}/passes'].map(
  (operation) => `${operation} › responses › 403: (absent) → {"content":{"application/problem+json":`,
);
const added = (line: string) => ADDED_ANSWERS.some((prefix) => line.startsWith(prefix));

const baseline = JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'openapi-baseline.json'), 'utf8')) as Json;
const shapeOf = (document: Json) => canonicalShape(descriptionShape(document));

function webhookShape(document: Json): unknown {
  const webhooks = (document.webhooks ?? {}) as Record<string, Record<string, Json>>;
  return canonicalShape(
    Object.fromEntries(
      Object.entries(webhooks).map(([name, item]) => {
        const operation = item.post!;
        const body = ((operation.requestBody as Json).content as Record<string, Json>)['application/json']!.schema;
        const parameters = ((operation.parameters as Json[] | undefined) ?? []).map((parameter) => [parameter.name, parameter.required === true, schemaShape(document, parameter.schema)]);
        return [name, { operationId: operation.operationId, statuses: Object.keys(operation.responses as Json), body: schemaShape(document, body), parameters }];
      }),
    ),
  );
}

describe('the mobility description built from the route table', () => {
  it('describes every operation, parameter, request body and response as the hand-written description did', () => {
    const differences = shapeDifferences(shapeOf(baseline), shapeOf(mobilityOpenApi()));
    expect(differences.filter((line) => !added(line)).sort()).toEqual([...INTENDED].sort());
    expect(differences.filter(added)).toHaveLength(ADDED_ANSWERS.length);
  });

  it('describes the events sent to webhook endpoints as before', () => {
    expect(shapeDifferences(webhookShape(baseline), webhookShape(mobilityOpenApi()))).toEqual([]);
  });

  it('keeps the prose partners read: info, servers, tags, security schemes, summaries and descriptions', () => {
    const now = mobilityOpenApi();
    for (const key of ['info', 'servers', 'tags', 'security']) expect(now[key]).toEqual(baseline[key]);
    expect((now.components as Json).securitySchemes).toEqual((baseline.components as Json).securitySchemes);
    const prose = (document: Json) =>
      Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([route, item]) =>
        Object.entries(item).map(([method, operation]) => [`${method} ${route}`, operation.summary, operation.description, operation['x-required-scope']]),
      ).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(prose(now)).toEqual(prose(baseline));
  });

  it('notices a changed response schema', () => {
    const changed = structuredClone(mobilityOpenApi()) as Json;
    const schemas = (changed.components as { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> }).schemas;
    schemas.Ride!.properties.fare = { type: 'string' };
    expect(shapeDifferences(shapeOf(baseline), shapeOf(changed)).filter((line) => !INTENDED.includes(line))).not.toEqual([]);
  });
});
