import { validateOpenApiDocument } from '@platform/test-kit';
import type { OpenApiDocument } from '@platform/service-kit/openapi';
import { DEFAULT_OPENAPI_FILES } from '../src/config';
import { loadGatewayDescription } from '../src/docs';
import { mergeDescriptions } from '../src/openapi';

interface Operation {
  security: unknown;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

const ok = { description: 'ok' };
const errorSchema = (description: string) => ({ type: 'object', required: ['error', 'code'], description });

function certificateDoc(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Certificate service', version: '1' },
    tags: [{ name: 'Public' }, { name: 'Admin' }],
    paths: {
      '/api/v1/verify/{code}': {
        get: {
          tags: ['Public'],
          security: [{ apiKey: [] }],
          responses: { '200': ok, '404': { description: 'nf', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } },
        },
      },
      '/admin/v1/api-keys': { get: { tags: ['Admin'], security: [{ adminJwt: [] }], responses: { '200': { description: 'keys', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiKey' } } } } } } },
      '/healthz': { get: { responses: { '200': ok } } },
    },
    components: {
      schemas: { Error: errorSchema('certificate'), ApiKey: { type: 'object' }, Money: { type: 'object', properties: { amount: { type: 'integer' } } } },
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'ck_' }, adminJwt: { type: 'http', scheme: 'bearer' } },
    },
  };
}

function mobilityDoc(): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Mobility service', version: '1' },
    paths: {
      '/api/v1/rides/{id}': {
        get: {
          security: [{ apiKey: ['rides:read'] }],
          responses: { '404': { description: 'nf', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }, '200': { description: 'ride', content: { 'application/json': { schema: { $ref: '#/components/schemas/Ride' } } } } },
        },
      },
      '/driver/v1/offers': { get: { security: [{ driverJwt: [] }], responses: { '200': ok } } },
      '/metrics': { get: { responses: { '200': ok } } },
    },
    components: {
      schemas: { Error: errorSchema('mobility'), Ride: { type: 'object', properties: { fare: { $ref: '#/components/schemas/Money' } } }, Money: { type: 'object', properties: { amount: { type: 'integer' } } } },
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'mk_' }, driverJwt: { type: 'http', scheme: 'bearer' } },
    },
  };
}

describe('mergeDescriptions', () => {
  const merged = mergeDescriptions(
    [
      { upstream: 'certificate', document: certificateDoc() },
      { upstream: 'mobility', document: mobilityDoc() },
    ],
    { title: 'Partner API', version: '1' },
  );
  const components = merged.components as Record<string, Record<string, unknown>>;

  it('keeps only the paths the gateway routes to each service', () => {
    expect(Object.keys(merged.paths).sort()).toEqual(['/api/v1/rides/{id}', '/api/v1/verify/{code}', '/driver/v1/offers']);
  });

  it('keeps the components and security schemes those paths use, and drops the admin ones', () => {
    expect(Object.keys(components.schemas!).sort()).toEqual(['CertificateError', 'MobilityError', 'Money', 'Ride']);
    expect(Object.keys(components.securitySchemes!).sort()).toEqual(['CertificateApiKey', 'MobilityApiKey', 'driverJwt']);
    expect(merged.tags).toEqual([{ name: 'Public' }]);
  });

  it('renames a component two services define differently and rewrites its references and security requirements', () => {
    const verify = merged.paths['/api/v1/verify/{code}']!.get as Operation;
    expect(verify.responses['404']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/CertificateError' });
    expect(verify.security).toEqual([{ CertificateApiKey: [] }]);
    const ride = merged.paths['/api/v1/rides/{id}']!.get as Operation;
    expect(ride.responses['404']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/MobilityError' });
    expect(ride.security).toEqual([{ MobilityApiKey: ['rides:read'] }]);
    expect(components.schemas!.MobilityError).toEqual(errorSchema('mobility'));
  });

  it('shares a component both services define identically', () => {
    expect(components.schemas!.Ride).toEqual({ type: 'object', properties: { fare: { $ref: '#/components/schemas/Money' } } });
  });

  it('leaves out a path a service describes but the gateway sends elsewhere', () => {
    const stray = mobilityDoc();
    stray.paths['/api/v1/credits'] = { get: { responses: { '200': ok } } };
    const result = mergeDescriptions([{ upstream: 'mobility', document: stray }], { title: 'x', version: '1' });
    expect(Object.keys(result.paths)).not.toContain('/api/v1/credits');
  });

  it('refuses two descriptions of the same path', () => {
    expect(() =>
      mergeDescriptions([{ upstream: 'certificate', document: certificateDoc() }, { upstream: 'certificate', document: certificateDoc() }], { title: 'x', version: '1' }),
    ).toThrow('/api/v1/verify/{code} is described by two services');
  });
});

describe('the gateway description of the real services', () => {
  const description = loadGatewayDescription(DEFAULT_OPENAPI_FILES);

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
      ]),
    );
    expect(paths.filter((path) => !/^\/(api\/v1|webhooks\/payments|driver\/v1)\//.test(path))).toEqual([]);
    expect(JSON.stringify(description)).not.toContain('adminJwt');
    expect(description.webhooks).toHaveProperty('rideOrDeliveryEvent');
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
