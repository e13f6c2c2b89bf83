import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { describeRoutes, problemSchema, responseConformance, responseValidator, route, type OverlayDocument } from '../src';

const Ride = z.object({ id: z.string(), status: z.enum(['open', 'done']), fare: z.int().min(0), done_at: z.iso.datetime({ offset: true }).nullable() }).meta({ id: 'Ride' });
const NewRide = z.object({ pickup: z.string().min(1) }).meta({ id: 'NewRide', examples: [{ pickup: 'Lagos' }] });

const table = [
  route({
    operationId: 'getRide',
    method: 'get',
    path: '/api/v1/rides/{id}',
    tags: ['Rides'],
    security: [{ apiKey: ['rides:read'] }],
    params: z.object({ id: z.string().meta({ description: 'A ride id.' }) }),
    query: z.object({ expand: z.enum(['driver']).optional() }),
    responses: { 200: Ride, 304: null, 404: { content: { 'application/problem+json': problemSchema } } },
  }),
  route({
    operationId: 'createRide',
    method: 'post',
    path: '/api/v1/rides',
    body: NewRide,
    responses: { 201: { headers: { Location: { schema: z.string() } }, content: { 'application/json': Ride } } },
  }),
];

const overlay: OverlayDocument = {
  openapi: '3.1.0',
  info: { title: 'Rides', version: '1' },
  paths: { '/api/v1/rides/{id}': { get: { summary: 'One ride', responses: { 200: { description: 'The ride.' } } } } },
};

describe('describeRoutes', () => {
  const document = describeRoutes(table, overlay);
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  const getRide = paths['/api/v1/rides/{id}']!.get!;

  it('builds operations, parameters and responses from the table and prose from the overlay', () => {
    expect(getRide).toMatchObject({ operationId: 'getRide', tags: ['Rides'], summary: 'One ride' });
    expect(getRide.parameters).toEqual([
      { name: 'id', in: 'path', required: true, description: 'A ride id.', schema: { type: 'string' } },
      { name: 'expand', in: 'query', schema: { type: 'string', enum: ['driver'] } },
    ]);
    const responses = getRide.responses as Record<string, Record<string, unknown>>;
    expect(responses['200']).toEqual({ description: 'The ride.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Ride' } } } });
    expect(responses['304']).toEqual({ description: 'Not Modified' });
    expect(responses['404']).toEqual({ description: 'Not Found', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Error' } } } });
  });

  it('writes component schemas from zod, without the safe-integer range or a pattern beside a date format in responses', () => {
    const schemas = (document.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    expect(Object.keys(schemas).sort()).toEqual(['Error', 'ErrorCode', 'NewRide', 'Ride']);
    expect(schemas.Ride!.properties).toEqual({
      id: { type: 'string' },
      status: { type: 'string', enum: ['open', 'done'] },
      fare: { type: 'integer', minimum: 0 },
      done_at: { type: ['string', 'null'], format: 'date-time' },
    });
  });

  it('shows the required scope and the request example', () => {
    expect(getRide['x-required-scope']).toBe('rides:read');
    expect(getRide.description).toMatch(/\*\*Required scope:\*\* `rides:read`/);
    const createRide = paths['/api/v1/rides']!.post!;
    expect(createRide.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewRide' }, example: { pickup: 'Lagos' } } } });
    expect((createRide.responses as Record<string, { headers: unknown }>)['201']!.headers).toEqual({ Location: { schema: { type: 'string' } } });
  });

  it('refuses an overlay that holds a schema or describes what the table does not declare', () => {
    const withSchema = { ...overlay, components: { schemas: { Ride: { type: 'object' } } } };
    expect(() => describeRoutes(table, withSchema)).toThrow(/holds a schema/);
    const unknownStatus = { ...overlay, paths: { '/api/v1/rides/{id}': { get: { responses: { 410: { description: 'Gone' } } } } } };
    expect(() => describeRoutes(table, unknownStatus)).toThrow(/status 410 of getRide/);
    const unknownOperation = { ...overlay, paths: { '/api/v1/cars': { get: { summary: 'Cars' } } } };
    expect(() => describeRoutes(table, unknownOperation)).toThrow(/GET \/api\/v1\/cars/);
  });

  it('writes a named response, header and parameter once under components and refers to it', () => {
    const notFound = { id: 'NotFound', description: 'No such ride.', headers: { 'X-Request-Id': { id: 'RequestId', schema: z.string() } }, content: { 'application/problem+json': problemSchema } };
    const id = z.string().meta({ description: 'A ride id.', parameterId: 'RideId' });
    const named = [
      route({ operationId: 'a', method: 'get', path: '/a/{id}', params: z.object({ id }), responses: { 404: notFound } }),
      route({ operationId: 'b', method: 'get', path: '/b/{id}', params: z.object({ id }), responses: { 404: notFound } }),
    ];
    const described = describeRoutes(named, { openapi: '3.1.0', info: { title: 'x', version: '1' } });
    const operation = (described.paths['/a/{id}'] as Record<string, Record<string, unknown>>).get!;
    expect(operation.parameters).toEqual([{ $ref: '#/components/parameters/RideId' }]);
    expect(operation.responses).toEqual({ 404: { $ref: '#/components/responses/NotFound' } });
    expect(described.components).toMatchObject({
      parameters: { RideId: { name: 'id', in: 'path', required: true, description: 'A ride id.', schema: { type: 'string' } } },
      responses: { NotFound: { description: 'No such ride.', headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } } } },
      headers: { RequestId: { schema: { type: 'string' } } },
    });
  });

  it('adds named schemas no operation answers', () => {
    const Event = z.object({ type: z.string() }).meta({ id: 'Event' });
    const schemas = (describeRoutes(table, overlay, { schemas: [Event] }).components as { schemas: Record<string, unknown> }).schemas;
    expect(schemas.Event).toEqual({ type: 'object', properties: { type: { type: 'string' } }, required: ['type'] });
  });

  it('writes a parameter whose schema nests a named schema in full (no reference into a document it is not in)', () => {
    const EventType = z.enum(['ride.created', 'ride.cancelled']).meta({ id: 'ListedEventType' });
    const listEvents = route({
      operationId: 'listEvents',
      method: 'get',
      path: '/api/v1/events',
      query: z.object({ type: EventType.optional() }),
      responses: { 200: z.object({ data: z.array(z.object({ type: EventType })) }) },
    });
    const described = describeRoutes([listEvents], { openapi: '3.1.0', info: { title: 'Events', version: '1' }, paths: {} });
    const parameters = (described.paths as Record<string, Record<string, { parameters: Array<{ name: string; schema: unknown }> }>>)['/api/v1/events']!.get!.parameters;
    expect(parameters).toEqual([{ name: 'type', in: 'query', schema: { type: 'string', enum: ['ride.created', 'ride.cancelled'] } }]);
    expect(JSON.stringify(described)).not.toContain('#/$defs/');
  });

  it('refuses a route declared twice', () => {
    expect(() => describeRoutes([...table, table[0]!], overlay)).toThrow(/twice/);
  });
});

describe('responseConformance', () => {
  const check = responseConformance(table);
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const ride = { id: 'r1', status: 'open', fare: 100, done_at: null };

  it('accepts an answer the table declares', () => {
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 200, headers: json, body: ride })).toEqual([]);
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 304, headers: {}, body: {} })).toEqual([]);
  });

  it('names an undeclared route, status, media type, a wrong field and an undeclared field', () => {
    expect(check({ method: 'DELETE', path: '/api/v1/rides/r1', status: 204, headers: {}, body: '' })).toEqual(['DELETE /api/v1/rides/r1 is not in the route table']);
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 410, headers: json, body: {} })[0]).toMatch(/status 410 is not declared/);
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 200, headers: { 'content-type': 'text/html' }, body: '<p>' })[0]).toMatch(/content type text\/html is not declared/);
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 200, headers: json, body: { ...ride, fare: -1 } })).toEqual([expect.stringMatching(/^GET \/api\/v1\/rides\/\{id\} 200: body\.fare /)]);
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 200, headers: json, body: { ...ride, secret: 1 } })).toEqual(['GET /api/v1/rides/{id} 200: body.secret is not declared']);
    expect(check({ method: 'GET', path: '/api/v1/rides/r1', status: 304, headers: json, body: { a: 1 } })[0]).toMatch(/declared without a body/);
  });
});

describe('the dev-mode response validator', () => {
  it('logs an answer that does not match and sends it unchanged', async () => {
    const warnings: Array<Record<string, unknown>> = [];
    const app = express();
    app.use(responseValidator(table, { warn: (details) => warnings.push(details) }));
    app.get('/api/v1/rides/:id', (req, res) => {
      res.json(req.params.id === 'good' ? { id: 'good', status: 'open', fare: 1, done_at: null } : { id: 'bad', status: 'lost' });
    });
    await request(app).get('/api/v1/rides/good').expect(200);
    expect(warnings).toEqual([]);
    const res = await request(app).get('/api/v1/rides/bad').expect(200);
    expect(res.body).toEqual({ id: 'bad', status: 'lost' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ method: 'GET', path: '/api/v1/rides/bad', status: 200 });
    expect((warnings[0]!.problems as string[]).join('\n')).toMatch(/body\.status/);
  });
});
