import request from 'supertest';
import { validateOpenApiDocument } from '@platform/test-kit';
import { mobilityOpenApi } from '../src/openapi';
import { createTestContext, type TestContext } from './helpers/context';
import { createPartnerKey } from './factories/auth';
import { partnerApi } from './factories/rides';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('mobility OpenAPI description', () => {
  it('is served as JSON at GET /openapi.json: built from the route table and the prose overlay', async () => {
    const res = await request(ctx.app).get('/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(mobilityOpenApi());
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/v1/estimates', '/api/v1/rides', '/driver/v1/offers']));
    expect(res.body.paths['/api/v1/rides'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NewRide' });
    expect(validateOpenApiDocument(res.body)).toEqual({ valid: true, errors: [] });
  });

  it('allows `address: null` in a request place, and the server accepts it as "no address"', async () => {
    const place = (mobilityOpenApi().components as { schemas: Record<string, { properties: Record<string, { properties: Record<string, unknown> }> }> }).schemas.NewRide!.properties.pickup!;
    expect(place.properties.address).toMatchObject({ anyOf: expect.arrayContaining([{ type: 'null' }]) });
    const partner = partnerApi(ctx, (await createPartnerKey(ctx)).token);
    const res = await partner.post('/api/v1/rides').send({
      pickup: { lat: 6.4541, lng: 3.3947, address: null },
      dropoff: { lat: 6.4281, lng: 3.4219, address: '12 Marina Road' },
      tier: 'economy',
      passenger: { name: 'Ada Obi', phone: '+2348012345678' },
    });
    expect(res.status).toBe(201);
    expect(res.body.pickup).toEqual({ lat: 6.4541, lng: 3.3947, address: null });
    expect(res.body.dropoff.address).toBe('12 Marina Road');
  });
});
