import { readFileSync } from 'node:fs';
import request from 'supertest';
import { loadOverlay } from '@platform/service-kit/route-table';
import { validateOpenApiDocument } from '@platform/test-kit';
import { OPENAPI_OVERLAY_FILE, certificateOpenApi } from '../src/openapi';
import { createTestContext, type TestContext } from './helpers/context';
import { conformanceProblems } from './helpers/openapi';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

describe('the OpenAPI descriptions', () => {
  it('the built description (the route table plus the prose overlay) is a valid OpenAPI 3.1 document', () => {
    const document = certificateOpenApi();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(validateOpenApiDocument(document)).toEqual({ valid: true, errors: [] });
  });

  it('takes every shape from the route table: the overlay holds prose only', () => {
    const overlay = readFileSync(OPENAPI_OVERLAY_FILE, 'utf8');
    expect(overlay).not.toMatch(/^\s*schemas?:/m);
    expect(loadOverlay(OPENAPI_OVERLAY_FILE).components).not.toHaveProperty('schemas');
    const built = (certificateOpenApi().components as { schemas: Record<string, { required?: string[]; additionalProperties?: boolean }> }).schemas;
    expect(built.NewCertificate).toMatchObject({ required: ['recipient_name', 'program_title', 'issue_date'], additionalProperties: false });
    expect(built.NewCertificateBatch).toMatchObject({ required: ['certificates'] });
    expect(built.Certificate).toMatchObject({ required: expect.arrayContaining(['id', 'verification_code', 'status']) });
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

describe('the route table catches drift between the code and the description', () => {
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const credits = { method: 'GET', path: '/api/v1/credits', status: 200, headers: json };

  it('accepts an answer exactly as declared', () => {
    expect(conformanceProblems({ ...credits, body: { organization: 'Academy', balance: 3, plan: 'free', livemode: true } })).toEqual([]);
  });

  it('reports a renamed field, a field of the wrong type and a field the table does not name', () => {
    expect(conformanceProblems({ ...credits, body: { organisation: 'Academy', balance: '3', plan: 'free', livemode: true } })).toEqual([
      expect.stringMatching(/^GET \/api\/v1\/credits 200: body\.organization /),
      expect.stringMatching(/^GET \/api\/v1\/credits 200: body\.balance /),
    ]);
    expect(conformanceProblems({ ...credits, body: { organization: 'Academy', balance: 3, plan: 'free', livemode: true, organisation: 'x' } })).toEqual([
      'GET /api/v1/credits 200: body.organisation is not declared',
    ]);
  });

  it('reports a wrong enum value deep in a list and a bad date format', () => {
    const certificate = {
      id: 'cert_1', verification_code: 'ABCDEF-GHJKMN-PQRSTU', certificate_number: 'N-1', recipient_name: 'Ada', program_title: 'P',
      issue_date: '01/05/2026', expires_on: null, status: 'suspended', created_at: '2026-05-01T00:00:00.000Z', updated_at: '2026-05-01T00:00:00.000Z', revoked_at: null,
      template_id: null, template_version: null, custom_fields: {}, livemode: true, recipient_email: null, delivery: null,
    };
    const problems = conformanceProblems({ method: 'GET', path: '/admin/v1/certificates', status: 200, headers: json, body: { data: [certificate], has_more: false, next_cursor: null } });
    expect(problems).toEqual([
      expect.stringMatching(/^GET \/admin\/v1\/certificates 200: body\.data\.0\.issue_date /),
      expect.stringMatching(/^GET \/admin\/v1\/certificates 200: body\.data\.0\.status /),
    ]);
  });

  it('reports an undeclared status, an undeclared route and an error body without its code', () => {
    expect(conformanceProblems({ ...credits, status: 418, body: {} })).toEqual([expect.stringContaining('status 418 is not declared')]);
    expect(conformanceProblems({ ...credits, path: '/api/v1/balance', body: {} })).toEqual(['GET /api/v1/balance is not in the route table']);
    const problem = { type: 'https://docs.partner-platform.example/errors/missing_api_key', title: 'Unauthorized', status: 401, detail: 'Missing API key', error: 'Missing API key' };
    const problemJson = { 'content-type': 'application/problem+json; charset=utf-8' };
    expect(conformanceProblems({ ...credits, status: 401, headers: problemJson, body: problem })).toEqual([expect.stringMatching(/^GET \/api\/v1\/credits 401: body\.code /)]);
    expect(conformanceProblems({ ...credits, status: 401, body: { ...problem, code: 'missing_api_key' } })).toEqual([
      'GET /api/v1/credits 401: content type application/json is not declared (declared: application/problem+json)',
    ]);
    expect(conformanceProblems({ ...credits, headers: { 'content-type': 'text/html' }, body: '<p>' })).toEqual([expect.stringContaining('content type text/html is not declared')]);
  });

  it('reports a body on an answer declared without one', () => {
    const problems = conformanceProblems({ method: 'DELETE', path: '/admin/v1/api-keys/key_1', status: 204, headers: json, body: { id: 'key_1' } });
    expect(problems).toEqual([expect.stringContaining('declared without a body')]);
  });
});
