import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { recordConformance } from '../src/route-conformance';
import { canonicalShape } from '../src/schema-spellings';

const table = [
  route({
    operationId: 'getRide',
    method: 'get',
    path: '/rides/{id}',
    responses: { 200: z.object({ id: z.string(), status: z.enum(['open', 'done']) }), 404: null },
  }),
];

/** A server answering each path with the body, status and headers the test gives. */
function serve(answers: Record<string, { status: number; body: Buffer | string; headers: Record<string, string> }>): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = answers[req.url ?? ''] ?? { status: 404, body: '', headers: {} };
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function get(server: Server, path: string): Promise<void> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
  });
}

describe('recordConformance', () => {
  const json = { 'content-type': 'application/json' };
  let server: Server;
  const recorder = recordConformance(table, { skip: ({ path }) => path === '/rides/skipped' });
  beforeAll(async () => {
    server = await serve({
      '/rides/good': { status: 200, body: JSON.stringify({ id: 'r1', status: 'open' }), headers: json },
      '/rides/extra': { status: 200, body: JSON.stringify({ id: 'r1', status: 'open', secret: 'x' }), headers: json },
      '/rides/wrong': { status: 200, body: JSON.stringify({ id: 'r1', status: 'lost' }), headers: json },
      '/rides/teapot': { status: 418, body: '', headers: {} },
      '/rides/gzip': { status: 200, body: gzipSync(JSON.stringify({ id: 'r1', status: 'done', more: 1 })), headers: { ...json, 'content-encoding': 'gzip' } },
      '/rides/skipped': { status: 418, body: '', headers: {} },
      '/elsewhere': { status: 500, body: 'not ours', headers: {} },
    });
  });
  afterAll(() => {
    recorder.stop();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reports nothing for an answer the table declares', async () => {
    await get(server, '/rides/good');
    expect(recorder.take()).toEqual([]);
  });

  it('reports an undeclared field, a value the schema refuses and an undeclared status, each naming the request', async () => {
    await get(server, '/rides/extra');
    await get(server, '/rides/wrong');
    await get(server, '/rides/teapot');
    const problems = recorder.take().join('\n');
    expect(problems).toContain('GET /rides/extra → 200');
    expect(problems).toContain('body.secret is not declared');
    expect(problems).toContain('GET /rides/wrong → 200');
    expect(problems).toContain('status 418 is not declared');
  });

  it('reads a compressed answer as its client does, and leaves skipped answers and other paths alone', async () => {
    const before = recorder.checked();
    await get(server, '/rides/gzip');
    await get(server, '/rides/skipped');
    await get(server, '/elsewhere');
    expect(recorder.take()).toEqual([expect.stringContaining('body.more is not declared')]);
    expect(recorder.checked()).toBe(before + 1);
  });
});

describe('canonicalShape', () => {
  it('merges allOf parts into one object and keeps conflicting keywords as an allOf of them', () => {
    const composed = {
      allOf: [
        { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^key_' }, kind: { type: 'string', enum: ['a', 'b'] } } },
        { required: ['token'], properties: { id: { type: 'string', pattern: '^k' }, kind: { const: 'a' }, token: { type: 'string' } } },
      ],
    };
    const flat = {
      type: 'object',
      required: ['id', 'token'],
      properties: { id: { type: 'string', allOf: [{ pattern: '^key_' }, { pattern: '^k' }] }, kind: { type: 'string', const: 'a' }, token: { type: 'string' } },
    };
    expect(canonicalShape(composed)).toEqual(canonicalShape(flat));
  });

  it('drops vacuous keywords but keeps every constraint', () => {
    expect(canonicalShape({ type: 'object', properties: {}, propertyNames: { type: 'string' }, additionalProperties: true })).toEqual({ type: 'object' });
    expect(canonicalShape({ type: 'object', additionalProperties: { type: 'string' } })).not.toEqual(canonicalShape({ type: 'object' }));
    expect(canonicalShape({ type: 'string', pattern: '^a' })).not.toEqual(canonicalShape({ type: 'string' }));
  });
});
