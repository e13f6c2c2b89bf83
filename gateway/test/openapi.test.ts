import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import pino from 'pino';
import { listen, validateOpenApiDocument } from '@platform/test-kit';
import { createApp } from '../src/app';
import { buildGatewayDescription, loadGatewayDescription } from '../src/openapi';
import { upstreamFor } from '../src/routes';

const description = buildGatewayDescription();

describe('the gateway description of the real services', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', () => {
    expect(validateOpenApiDocument(description)).toEqual({ valid: true, errors: [] });
  });

  it('holds the public API, the payment webhooks and the driver API, and nothing the gateway does not route', () => {
    const paths = Object.keys(description.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/credits',
        '/api/v1/verify/{code}',
        '/webhooks/payments/gateway-a',
        '/webhooks/payments/gateway-b',
        '/api/v1/estimates',
        '/api/v1/rides',
        '/api/v1/rides/{id}/cancel',
        '/api/v1/deliveries/{id}',
        '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
        '/driver/v1/offers/{id}/accept',
        '/driver/v1/deliveries/{id}/deliver',
        '/api/v1/event-pass-programs/{id}/passes',
        '/api/v1/event-passes/{code}/revoke',
      ]),
    );
    expect(paths.filter((path) => !/^\/(api\/v1|webhooks\/payments|driver\/v1)\//.test(path))).toEqual([]);
    expect(JSON.stringify(description)).not.toContain('adminJwt');
    expect(description.webhooks).toHaveProperty('rideOrDeliveryEvent');
  });

  it('describes each path where the route table sends it: certificate paths to certificate, mobility paths to mobility', () => {
    const certificatePaths = new Set(Object.keys(description.paths).filter((path) => /credits|verify|payments/.test(path)));
    const misrouted = Object.keys(description.paths).filter((template) => {
      const upstream = upstreamFor(template.replace(/\{[^}]+\}/g, 'x'));
      return upstream !== (certificatePaths.has(template) ? 'certificate' : 'mobility');
    });
    expect(misrouted).toEqual([]);
  });

  it('carries the request schemas generated from the services\' zod schemas, each request body with an example', () => {
    const rides = description.paths['/api/v1/rides']!.post as { requestBody: { content: Record<string, { schema: unknown; example: unknown }> } };
    expect(rides.requestBody.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/NewRide' });
    expect(rides.requestBody.content['application/json']!.example).toMatchObject({ tier: 'economy' });
    const bodies = Object.entries(description.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>).flatMap(([method, operation]) =>
        Object.entries(operation.requestBody?.content ?? {}).map(([type, media]) => ({ at: `${method} ${path} ${type}`, example: media.example })),
      ),
    );
    expect(bodies.length).toBeGreaterThan(8);
    expect(bodies.filter((body) => body.example === undefined).map((body) => body.at)).toEqual([]);
  });

  it('documents the gateway\'s own 502 and 504 on every operation', () => {
    const operations = Object.values(description.paths).flatMap((item) => Object.values(item as Record<string, { responses: Record<string, unknown> }>));
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      expect(operation.responses['502']).toEqual({ $ref: '#/components/responses/UpstreamUnavailable' });
      expect(operation.responses['504']).toEqual({ $ref: '#/components/responses/UpstreamTimeout' });
    }
  });
});

describe('the merged description is built ahead of time', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gateway-openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scripts/build-openapi.ts writes the same description the gateway builds from source', () => {
    const file = path.join(dir, 'openapi.json');
    execFileSync(process.execPath, [require.resolve('tsx/cli'), path.join(__dirname, '..', 'scripts', 'build-openapi.ts'), file], { encoding: 'utf8', timeout: 60000 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(description);
  }, 90000);

  it('serves GATEWAY_OPENAPI_FILE as it is when the file exists', async () => {
    const file = path.join(dir, 'prebuilt.json');
    const prebuilt = { openapi: '3.1.0', info: { title: 'Prebuilt', version: '9' }, paths: {} };
    writeFileSync(file, JSON.stringify(prebuilt));
    expect(loadGatewayDescription(file)).toEqual(prebuilt);
    const gateway = await listen(
      createServer(createApp({ config: { CERTIFICATE_URL: 'http://127.0.0.1:9', MOBILITY_URL: 'http://127.0.0.1:9', UPSTREAM_TIMEOUT_MS: 1000, GATEWAY_OPENAPI_FILE: file }, logger: pino({ level: 'silent' }) })),
    );
    try {
      const res = await fetch(`${gateway.url}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(prebuilt);
    } finally {
      await gateway.close();
    }
  });

  it('refuses to start on a file that is not an OpenAPI document', () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify({ hello: 'world' }));
    expect(() => loadGatewayDescription(file)).toThrow('is not an OpenAPI document');
  });
});
