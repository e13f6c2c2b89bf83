import request from 'supertest';
import { certificateOpenApi } from '../src/openapi';
import { createTestContext, type TestContext } from './helpers/context';
import { issueCertificate, newOrg } from './factories/admin';
import { createTemplate } from './factories/templates';
import { GATEWAY_B_HASH, paymentGatewayEnv, signA, startFakeGateways } from './factories/payment-gateways';
import { expectToMatchRouteTable } from './helpers/openapi';
import { newId } from '@platform/service-kit/ids';
import { tokenHash } from '../src/features/accounts/secret-tokens';
import { hashPassword } from '../src/features/accounts/passwords';
import { ORIGIN, signUp, uniqueEmail } from './factories/accounts';

type Json = Record<string, unknown>;

let ctx: TestContext;
let gateways: Awaited<ReturnType<typeof startFakeGateways>>;

beforeAll(async () => {
  gateways = await startFakeGateways();
  ctx = createTestContext(paymentGatewayEnv(gateways.url, 3000));
});
afterAll(async () => {
  await ctx.close();
  await gateways.close();
});

/** Every documented request example: `METHOD path content-type`, the example, and the query it goes with. */
function documentedExamples(): { label: string; method: string; path: string; contentType?: string; body?: unknown; query?: Json }[] {
  const document = certificateOpenApi();
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Json>).flatMap(([method, operation]) => {
      const content = (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      const queryParameters = ((operation.parameters as Json[] | undefined) ?? []).filter((parameter) => parameter.in === 'query');
      const withBodies = Object.entries(content ?? {}).map(([contentType, media]) => ({ label: `${method.toUpperCase()} ${path} ${contentType}`, method, path, contentType, body: media.example }));
      // An operation with a body too (issuing in test mode) gets its first body example with the query.
      const [firstBody] = withBodies;
      const withQuery = queryParameters.length
        ? [{ label: `${method.toUpperCase()} ${path} ?query`, method, path, query: Object.fromEntries(queryParameters.filter((p) => 'example' in p).map((p) => [p.name as string, p.example])), ...(firstBody ? { contentType: firstBody.contentType, body: firstBody.body } : {}) }]
        : [];
      return [...withBodies, ...withQuery];
    }),
  );
}

describe('every request example in the description is accepted', () => {
  const examples = documentedExamples();

  it('the description has an example for every request body and every query', () => {
    expect(examples.length).toBeGreaterThanOrEqual(8);
    expect(examples.filter((example) => example.body === undefined && example.query === undefined).map((example) => example.label)).toEqual([]);
    expect(examples.filter((example) => example.query && Object.keys(example.query).length === 0).map((example) => example.label)).toEqual([]);
  });

  it.each(examples.map((example) => [example.label, example] as const))('%s answers 2xx and matches the description', async (_label, example) => {
    const org = newOrg(ctx);
    let path = example.path;
    if (path.includes('/api-keys/{id}')) {
      const key = await request(ctx.app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'Example key' }).expect(201);
      path = path.replace('{id}', key.body.id as string);
    }
    if (path.includes('/templates/{id}')) path = path.replace('{id}', (await createTemplate(ctx, org)).id);
    if (path.includes('/certificates/{id}')) {
      // A query example in test mode reads a test certificate: a live one is not found there.
      // With a recipient email, so that a resend has someone to mail.
      const input = { recipient_name: 'Ada Lovelace', program_title: 'Engines', issue_date: '2026-05-01', recipient_email: 'ada@example.org' };
      const certificate = example.query?.mode === 'test' ? (await request(ctx.app).post('/admin/v1/certificates?mode=test').set('Authorization', org.admin()).send(input).expect(201)).body : await issueCertificate(ctx, org, input);
      path = path.replace('{id}', certificate.id as string);
    }
    let authorization = org.admin();
    let cookie: string | undefined;
    if (example.path.startsWith('/accounts/') || /\/admin\/v1\/(members|invitations)/.test(example.path)) {
      // Account routes: a signed-up owner; the sign-in example's account exists; invitations and members are real ones.
      const owner = await signUp(ctx);
      authorization = `Bearer ${owner.accessToken}`;
      cookie = owner.cookie;
      if (example.path === '/accounts/v1/signup') await ctx.db('accounts').whereRaw('lower(email) = lower(?)', [(example.body as Json).email as string]).delete();
      // The mailed-token examples: a pending sign-up or a reset of the owner's password under the example's token.
      if (example.path === '/accounts/v1/verify-email' || example.path === '/accounts/v1/password-reset/confirm') {
        const hash = tokenHash((example.body as Json).token as string);
        await ctx.db('email_tokens').where({ token_hash: hash }).delete();
        const pending = example.path === '/accounts/v1/verify-email';
        await ctx.db('email_tokens').insert({
          id: newId('etk'), purpose: pending ? 'sign_up' : 'password_reset', token_hash: hash, email: pending ? uniqueEmail('example') : owner.email,
          account_id: pending ? null : owner.accountId, sign_up: pending ? JSON.stringify({ name: 'Example', password_hash: await hashPassword((example.body as Json).password as string) }) : null, expires_at: new Date(Date.now() + 3600_000),
        });
      }
      if (example.path === '/accounts/v1/sessions' && !(await ctx.db('accounts').whereRaw('lower(email) = lower(?)', [(example.body as Json).email as string]).first())) {
        await signUp(ctx, { ...(example.body as Json), name: 'Grace Hopper' });
      }
      if (path.includes('{token}')) {
        const invitation = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', authorization).send({ role: 'member' }).expect(201);
        path = path.replace('{token}', invitation.body.token as string);
        if (example.path.endsWith('/accept')) {
          const joiner = await signUp(ctx);
          authorization = `Bearer ${joiner.accessToken}`;
          cookie = joiner.cookie;
        }
      }
      if (path.includes('{account_id}')) {
        const invitation = await request(ctx.app).post('/admin/v1/invitations').set('Authorization', authorization).send({ role: 'member' }).expect(201);
        const member = await signUp(ctx, { organization_name: undefined, invitation_token: invitation.body.token });
        path = path.replace('{account_id}', member.accountId);
      }
    }
    let call = request(ctx.app)[example.method as 'get' | 'post'](path);
    if (example.path.startsWith('/admin/') || example.path.startsWith('/accounts/')) call = call.set('Authorization', authorization);
    if (example.path.startsWith('/accounts/')) call = call.set('Origin', ORIGIN).set('Cookie', cookie!);
    if (example.query) call = call.query(example.query);
    if (example.contentType) {
      const raw = typeof example.body === 'string' ? example.body : JSON.stringify(example.body);
      call = call.set('Content-Type', example.contentType);
      // Payment gateways sign the exact bytes; the test signs the example as the gateway would.
      if (example.path.endsWith('/gateway-a')) call = call.set('X-Gateway-Signature', signA(raw));
      if (example.path.endsWith('/gateway-b')) call = call.set('X-Webhook-Hash', GATEWAY_B_HASH);
      call = call.send(raw);
    }
    const res = await call;
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expectToMatchRouteTable(res);
  });
});
