import { isPartnerPath, mergeDescriptions, type OpenApiDocument } from '../src';

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
      { exposes: isPartnerPath, document: certificateDoc() },
      { exposes: isPartnerPath, document: mobilityDoc() },
    ],
    { title: 'Partner API', version: '1' },
  );
  const components = merged.components as Record<string, Record<string, unknown>>;

  it('keeps only the partner paths (no admin API, health checks or metrics)', () => {
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

  it('leaves out a path the service does not expose', () => {
    const stray = mobilityDoc();
    stray.paths['/api/v1/credits'] = { get: { responses: { '200': ok } } };
    const result = mergeDescriptions([{ exposes: (path) => path !== '/api/v1/credits', document: stray }], { title: 'x', version: '1' });
    expect(Object.keys(result.paths)).not.toContain('/api/v1/credits');
    expect(Object.keys(result.paths)).toContain('/api/v1/rides/{id}');
  });

  it('refuses two descriptions of the same path', () => {
    expect(() =>
      mergeDescriptions([{ exposes: isPartnerPath, document: certificateDoc() }, { exposes: isPartnerPath, document: certificateDoc() }], { title: 'x', version: '1' }),
    ).toThrow('/api/v1/verify/{code} is described by two services');
  });
});
