import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import pino from 'pino';
import { listen, staleDescription, validateOpenApiDocument } from '@platform/test-kit';
import { createApp } from '../src/app';
import type { OpenApiDocument } from '@platform/api-description';
import { DEFAULT_CERTIFICATE_OPENAPI_FILE, DEFAULT_MOBILITY_OPENAPI_FILE, loadGatewayDescription, type ServiceDescriptionFiles } from '../src/openapi';
import { upstreamFor } from '../src/routes';

const SERVICE_FILES = { certificate: DEFAULT_CERTIFICATE_OPENAPI_FILE, mobility: DEFAULT_MOBILITY_OPENAPI_FILE };

function builtDescription(files: ServiceDescriptionFiles): OpenApiDocument {
  const loaded = loadGatewayDescription(files);
  if (!loaded.built) throw new Error(`not built: ${loaded.missing.join(', ')}`);
  return loaded.document;
}

const description = builtDescription(SERVICE_FILES);

describe('the gateway description of the real services', () => {
  it('is a valid OpenAPI 3.1 document whose references all resolve', () => {
    expect(validateOpenApiDocument(description)).toEqual({ valid: true, errors: [] });
  });

  // The published contract: what partners see through the gateway, committed; a change to it is a diff in review.
  it('is the committed gateway/openapi.json (the services write their files from their sources first)', () => {
    expect(staleDescription(path.join(__dirname, '..', 'openapi.json'), description)).toEqual([]);
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

describe('the merged description comes from the services\' built description files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gateway-openapi-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function withGateway(files: ServiceDescriptionFiles, check: (url: string) => Promise<void>): Promise<void> {
    const config = { CERTIFICATE_URL: 'http://127.0.0.1:9', MOBILITY_URL: 'http://127.0.0.1:9', UPSTREAM_TIMEOUT_MS: 1000, CERTIFICATE_OPENAPI_FILE: files.certificate, MOBILITY_OPENAPI_FILE: files.mobility };
    const gateway = await listen(createServer(createApp({ config, logger: pino({ level: 'silent' }) })));
    try {
      await check(gateway.url);
    } finally {
      await gateway.close();
    }
  }

  it('serves the files CERTIFICATE_OPENAPI_FILE and MOBILITY_OPENAPI_FILE name, merged', async () => {
    const files = { certificate: path.join(dir, 'certificate.json'), mobility: path.join(dir, 'mobility.json') };
    copyFileSync(SERVICE_FILES.certificate, files.certificate);
    const mobility = JSON.parse(readFileSync(SERVICE_FILES.mobility, 'utf8')) as OpenApiDocument;
    delete (mobility.paths as Record<string, unknown>)['/api/v1/estimates'];
    writeFileSync(files.mobility, JSON.stringify(mobility));
    await withGateway(files, async (url) => {
      const res = await fetch(`${url}/openapi.json`);
      expect(res.status).toBe(200);
      const served = (await res.json()) as OpenApiDocument;
      expect(Object.keys(served.paths)).toContain('/api/v1/rides');
      expect(Object.keys(served.paths)).not.toContain('/api/v1/estimates');
      expect(served).toEqual(builtDescription(files));
    });
  });

  it('answers /openapi.json and /docs with 503 description_not_built while a file is missing, keeps running, and serves it once built', async () => {
    const files = { certificate: SERVICE_FILES.certificate, mobility: path.join(dir, 'not-yet-built.json') };
    await withGateway(files, async (url) => {
      for (const page of ['/openapi.json', '/docs']) {
        const res = await fetch(`${url}${page}`);
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toMatchObject({ code: 'description_not_built' });
      }
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      copyFileSync(SERVICE_FILES.mobility, files.mobility);
      const res = await fetch(`${url}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(description);
      expect((await fetch(`${url}/docs`)).status).toBe(200);
    });
  });

  it('refuses to start on a file that is not an OpenAPI document', () => {
    const file = path.join(dir, 'broken.json');
    writeFileSync(file, JSON.stringify({ hello: 'world' }));
    expect(() => loadGatewayDescription({ certificate: SERVICE_FILES.certificate, mobility: file })).toThrow('is not an OpenAPI document');
  });
});
