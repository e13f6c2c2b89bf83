import request from 'supertest';
import { createResponseValidator, validateOpenApiDocument } from '@platform/test-kit';
import { loadOpenApiDocument } from '@platform/service-kit';
import { OPENAPI_FILE, certificateOpenApi } from '../src/openapi';
import { createTestContext, type TestContext } from './helpers/context';
import { certificateResponseValidator } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('the OpenAPI descriptions', () => {
  it('the built description (openapi.yaml plus the routes\' zod request schemas) is a valid OpenAPI 3.1 document', () => {
    const document = certificateOpenApi();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(validateOpenApiDocument(document)).toEqual({ valid: true, errors: [] });
  });

  it('describes each request body once, from the zod schema the route validates with', () => {
    const yaml = loadOpenApiDocument(OPENAPI_FILE);
    const handWritten = Object.keys((yaml.components as { schemas: Record<string, unknown> }).schemas);
    expect(handWritten).not.toEqual(expect.arrayContaining(['NewCertificate']));
    const built = (certificateOpenApi().components as { schemas: Record<string, { required?: string[]; additionalProperties?: boolean }> }).schemas;
    expect(built.NewCertificate).toMatchObject({ required: ['recipient_name', 'program_title', 'issue_date'], additionalProperties: false });
    expect(built.NewCertificateBatch).toMatchObject({ required: ['certificates'] });
  });

  it('the document check reports a broken description', () => {
    const broken = { ...certificateOpenApi(), info: { title: 'no version' } };
    const check = validateOpenApiDocument(broken);
    expect(check.valid).toBe(false);
    expect(JSON.stringify(check.errors)).toContain('version');
  });

  it('the document check reports a reference that does not resolve', () => {
    const dangling = structuredClone(certificateOpenApi());
    (dangling.components as { schemas: Record<string, unknown> }).schemas.Credits = { $ref: '#/components/schemas/Balance' };
    const check = validateOpenApiDocument(dangling);
    expect(check.valid).toBe(false);
    expect(JSON.stringify(check.errors)).toContain('#/components/schemas/Balance');
  });

  it('is served as JSON at GET /openapi.json, the built description', async () => {
    const res = await request(ctx.app).get('/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(certificateOpenApi());
    expect(res.body.paths['/admin/v1/certificates'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NewCertificate' });
  });
});

describe('the response validator catches drift between the code and the description', () => {
  const credits = { method: 'GET', path: '/api/v1/credits', status: 200, contentType: 'application/json; charset=utf-8', text: '{}' };

  it('accepts an answer exactly as documented', () => {
    expect(certificateResponseValidator().validate({ ...credits, body: { organization: 'Academy', balance: 3, plan: 'free' } })).toEqual([]);
  });

  it('reports a renamed field, a field of the wrong type and a field the description does not name', () => {
    const problems = createResponseValidator(certificateOpenApi()).validate({ ...credits, body: { organisation: 'Academy', balance: '3', plan: 'free' } });
    expect(problems).toEqual(
      expect.arrayContaining([
        "GET /api/v1/credits 200: body must have required property 'organization'",
        'GET /api/v1/credits 200: body/balance must be integer',
        'GET /api/v1/credits 200: body must NOT have additional properties (organisation)',
      ]),
    );
  });

  it('reports a wrong enum value deep in a list and a bad date format', () => {
    const certificate = {
      id: 'cert_1', verification_code: 'ABCDEF-GHJKMN-PQRSTU', certificate_number: 'N-1', recipient_name: 'Ada', program_title: 'P',
      issue_date: '01/05/2026', expires_on: null, status: 'suspended', created_at: '2026-05-01T00:00:00.000Z', updated_at: '2026-05-01T00:00:00.000Z', revoked_at: null,
    };
    const problems = certificateResponseValidator().validate({
      method: 'GET', path: '/admin/v1/certificates', status: 200, contentType: 'application/json', text: '{}',
      body: { data: [certificate], has_more: false, next_cursor: null },
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'GET /admin/v1/certificates 200: body/data/0/issue_date must match format "date"',
        'GET /admin/v1/certificates 200: body/data/0/status must be equal to one of the allowed values',
      ]),
    );
  });

  it('reports an undocumented status, an undocumented route and an error body without its code', () => {
    const validator = certificateResponseValidator();
    expect(validator.validate({ ...credits, status: 418, body: {} })).toEqual([expect.stringContaining('status 418 is not documented')]);
    expect(validator.validate({ ...credits, path: '/api/v1/balance', body: {} })).toEqual(['GET /api/v1/balance is not in the description']);
    const problem = { type: 'https://docs.partner-platform.example/errors/missing_api_key', title: 'Unauthorized', status: 401, detail: 'Missing API key', error: 'Missing API key' };
    expect(validator.validate({ ...credits, status: 401, contentType: 'application/problem+json', body: problem })).toEqual([
      "GET /api/v1/credits 401: body must have required property 'code'",
    ]);
    expect(validator.validate({ ...credits, status: 401, body: { ...problem, code: 'missing_api_key' } })).toEqual([
      'GET /api/v1/credits 401: content type application/json is not documented (documented: application/problem+json)',
    ]);
    expect(validator.validate({ ...credits, contentType: 'text/html', body: {} })).toEqual([expect.stringContaining('content type text/html is not documented')]);
  });

  it('reports a body on an answer documented without one', () => {
    const problems = certificateResponseValidator().validate({ method: 'DELETE', path: '/admin/v1/api-keys/key_1', status: 204, contentType: 'application/json', body: { id: 'key_1' }, text: '{"id":"key_1"}' });
    expect(problems).toEqual([expect.stringContaining('documented without a body')]);
  });
});
