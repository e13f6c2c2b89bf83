import { descriptionShape, shapeDifferences } from '../src/description-shape';

const base = {
  openapi: '3.1.0',
  paths: {
    '/rides/{id}': {
      get: {
        operationId: 'getRide',
        parameters: [{ $ref: '#/components/parameters/Id' }],
        responses: { '200': { description: 'A ride', content: { 'application/json': { schema: { $ref: '#/components/schemas/Ride' } } } } },
      },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, description: 'The id', schema: { type: 'string' } } },
    schemas: {
      Ride: { type: 'object', required: ['status', 'id'], properties: { id: { type: 'string', description: 'Its id' }, driver: { type: ['string', 'null'] }, status: { $ref: '#/components/schemas/Status' } } },
      Status: { type: 'string', enum: ['open', 'done'] },
    },
  },
};

describe('descriptionShape', () => {
  it('is the same for a description with other component names, key order, prose and nullable spelling', () => {
    const other = {
      openapi: '3.1.0',
      components: {
        schemas: {
          Trip: {
            properties: { status: { enum: ['open', 'done'], type: 'string' }, driver: { anyOf: [{ type: 'string' }, { type: 'null' }] }, id: { type: 'string' } },
            required: ['id', 'status'],
            type: 'object',
          },
        },
      },
      paths: {
        '/rides/{id}': {
          get: {
            responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Trip' } } }, description: 'Other words' } },
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            operationId: 'getRide',
          },
        },
      },
    };
    expect(shapeDifferences(descriptionShape(base), descriptionShape(other))).toEqual([]);
  });

  it('differs when a response schema changes, naming where', () => {
    const changed = structuredClone(base);
    changed.components.schemas.Status.enum = ['open', 'done', 'lost'];
    const differences = shapeDifferences(descriptionShape(base), descriptionShape(changed));
    expect(differences).toEqual([expect.stringMatching(/^GET \/rides\/\{id\} › responses › 200 › content › application\/json › properties › status › enum: /)]);
  });

  it('differs when a parameter stops being required or a status is added', () => {
    const changed = structuredClone(base);
    changed.components.parameters.Id.required = false;
    (changed.paths['/rides/{id}'].get.responses as Record<string, unknown>)['404'] = { description: 'Gone' };
    expect(shapeDifferences(descriptionShape(base), descriptionShape(changed))).toHaveLength(2);
  });
});
