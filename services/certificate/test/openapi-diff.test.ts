import path from 'node:path';
import { staleDescription } from '@platform/test-kit';
import { certificateOpenApi } from '../src/openapi';

type Json = Record<string, unknown>;

/** The published contract: the description partners see, committed; a change to it is a diff in review. */
const COMMITTED = path.join(__dirname, '..', 'openapi.json');

/**
 * The committed description (`openapi.json`) against the one the route table and the overlay build now: every path,
 * operation, parameter, request body, response, named schema (clients generated from it name them), summary and
 * description, in the same key order. `pnpm build` rewrites the file, so a change to what partners see is always a
 * reviewable diff of it.
 */
describe('the committed certificate description (openapi.json)', () => {
  it('is the description the route table and the overlay build now', () => {
    expect(staleDescription(COMMITTED, certificateOpenApi())).toEqual([]);
  });

  it('notices a changed response schema and a dropped named schema', () => {
    const changed = structuredClone(certificateOpenApi()) as Json;
    const schemas = (changed.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    schemas.Certificate!.properties.id = { type: 'integer' };
    delete schemas.ApiKeyWithToken;
    const report = staleDescription(COMMITTED, changed);
    expect(report[0]).toMatch(/^services\/certificate\/openapi\.json is stale .*`pnpm build`/);
    expect(report).toEqual(expect.arrayContaining([expect.stringMatching(/^components › schemas › Certificate › properties › id › type: "string" → "integer"$/), expect.stringMatching(/^components › schemas › ApiKeyWithToken: .* → \(absent\)$/)]));
  });
});
