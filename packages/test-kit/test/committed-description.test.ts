import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { staleDescription } from '../src/committed-description';

const built = {
  openapi: '3.1.0',
  info: { title: 'Rides', version: '1' },
  paths: { '/rides/{id}': { get: { summary: 'A ride', responses: { '200': { $ref: '#/components/responses/Ride' } } } } },
  components: { schemas: { Ride: { type: 'object', properties: { fare: { type: 'integer' } }, required: ['fare'] } } },
};

describe('staleDescription', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'committed-description-'));
    file = path.join(dir, 'openapi.json');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const commit = (document: unknown) => writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);

  it('is empty while the file holds the built document, key order included', () => {
    commit(built);
    expect(staleDescription(file, built)).toEqual([]);
  });

  it('names the file, the command that rewrites it and each changed place: a schema, a summary', () => {
    commit(built);
    const changed = structuredClone(built);
    changed.components.schemas.Ride.properties.fare = { type: 'string' } as never;
    changed.paths['/rides/{id}'].get.summary = 'One ride';
    const report = staleDescription(file, changed);
    expect(report[0]).toMatch(/openapi\.json is stale .*run `pnpm build`/);
    expect(report.slice(1)).toEqual([
      'components › schemas › Ride › properties › fare › type: "integer" → "string"',
      'paths › /rides/{id} › get › summary: "A ride" → "One ride"',
    ]);
  });

  it('notices keys in another order (the committed file is the byte-exact published contract)', () => {
    const { paths, components, ...rest } = built;
    commit({ ...rest, components, paths });
    expect(staleDescription(file, built).slice(1)).toEqual(['the same document, its keys in another order']);
  });

  it('notices a missing file', () => {
    expect(staleDescription(path.join(dir, 'absent.json'), built)).toEqual([expect.stringMatching(/absent\.json is missing: run `pnpm build`/)]);
  });
});
