import path from 'node:path';
import { staleDescription } from '@platform/test-kit';
import { mobilityOpenApi } from '../src/openapi';

type Json = Record<string, unknown>;

/** The published contract: the description partners see, committed; a change to it is a diff in review. */
const COMMITTED = path.join(__dirname, '..', 'openapi.json');

/**
 * The committed description (`openapi.json`) against the one the route table and the overlay build now: every path,
 * operation, parameter, request body, response, webhook, security scheme, summary and description, in the same key
 * order. `pnpm build` rewrites the file, so a change to what partners see is always a reviewable diff of it.
 */
describe('the committed mobility description (openapi.json)', () => {
  it('is the description the route table and the overlay build now', () => {
    expect(staleDescription(COMMITTED, mobilityOpenApi())).toEqual([]);
  });

  it('notices a changed response schema, a changed webhook and changed prose', () => {
    const changed = structuredClone(mobilityOpenApi()) as Json;
    const schemas = (changed.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    schemas.Ride!.properties.fare = { type: 'string' };
    const webhook = Object.values(changed.webhooks as Record<string, { post: Json }>)[0]!;
    webhook.post.operationId = 'renamed';
    (changed.info as Json).title = 'Another title';
    const report = staleDescription(COMMITTED, changed);
    expect(report[0]).toMatch(/^services\/mobility\/openapi\.json is stale .*`pnpm build`/);
    expect(report).toEqual(expect.arrayContaining([expect.stringMatching(/^components › schemas › Ride › properties › fare › type: \(absent\) → "string"$/), expect.stringMatching(/^webhooks › .* › post › operationId: /), expect.stringMatching(/^info › title: /)]));
  });
});
