import request from 'supertest';
import { certificateInput, newOrg, type TestOrg } from './factories/admin';
import { templateInput } from './factories/templates';
import { binary } from './helpers/documents';
import { startPaymentsContext, type PaymentsContext } from './helpers/payments';

/**
 * The audit actions the route table declares for issuing, templates and payments: each successful change writes one
 * row (who, what, which object), a refused one or a preview none. Owners read them at `GET /admin/v1/audit-log`.
 */
let p: PaymentsContext;
beforeAll(async () => {
  p = await startPaymentsContext();
});
afterAll(async () => {
  await p.ctx.services.documents.close(); // the render workers the previews started
  await p.close();
});

const admin = (org: TestOrg, method: 'get' | 'post' | 'patch', path: string, role: 'owner' | 'member' = 'owner') =>
  request(p.ctx.app)[method](`/admin/v1${path}`).set('Authorization', org.admin(role)).set('X-Forwarded-For', '203.0.113.9');

type Entry = {
  action: string;
  target_id: string | null;
  actor_id: string;
  actor_role: string;
  details: Record<string, unknown>;
  mode: 'live' | 'test' | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

async function auditOf(org: TestOrg): Promise<Entry[]> {
  return (await admin(org, 'get', '/audit-log?limit=100').expect(200)).body.data as Entry[];
}

describe('audit of issuing', () => {
  it('records certificate.issued, certificate.batch_issued (JSON and CSV) and certificate.revoked; a refused issue records nothing', async () => {
    const org = newOrg(p.ctx);
    const issued = await admin(org, 'post', '/certificates', 'member').send(certificateInput()).expect(201);
    await admin(org, 'post', '/certificates/batch').send({ certificates: [certificateInput({ recipient_name: 'Grace Hopper' })] }).expect(201);
    await admin(org, 'post', '/certificates/batch').set('Content-Type', 'text/csv').send('recipient_name,program_title,issue_date\nAlan Turing,Engines,2026-01-02\n').expect(201);
    await admin(org, 'post', `/certificates/${issued.body.id as string}/revoke`).send().expect(200);
    // Refused: nothing recorded.
    await admin(org, 'post', '/certificates').send(certificateInput({ issue_date: 'soon' })).expect(422);
    await admin(org, 'post', '/certificates/cert_00000000000000000000/revoke').send().expect(404);

    const entries = await auditOf(org);
    expect(entries.map((entry) => entry.action)).toEqual(['certificate.revoked', 'certificate.batch_issued', 'certificate.batch_issued', 'certificate.issued']);
    const [revoked, csv, json, single] = entries;
    expect(single).toMatchObject({ target_id: issued.body.id, actor_id: org.owner, actor_role: 'member' });
    expect(revoked).toMatchObject({ target_id: issued.body.id, actor_role: 'owner' });
    expect([json!.target_id, csv!.target_id]).toEqual([null, null]);
    // Live data, and the revoke's before and after (the fields it changed; never the verification code).
    expect(entries.map((entry) => entry.mode)).toEqual(['live', 'live', 'live', 'live']);
    expect(single).toMatchObject({ before: null, after: null });
    expect(revoked).toMatchObject({ before: { status: 'valid', revoked_at: null }, after: { status: 'revoked', revoked_at: expect.any(String) } });
    expect(JSON.stringify(entries)).not.toContain(issued.body.verification_code);
  });

  it('records a test-mode issue and revoke as test (mode from the dashboard query)', async () => {
    const org = newOrg(p.ctx);
    const issued = await admin(org, 'post', '/certificates?mode=test').send(certificateInput()).expect(201);
    await admin(org, 'post', `/certificates/${issued.body.id as string}/revoke?mode=test`).send().expect(200);
    // Live mode cannot see a test certificate: 404, nothing recorded.
    await admin(org, 'post', `/certificates/${issued.body.id as string}/revoke`).send().expect(404);
    const entries = await auditOf(org);
    expect(entries.map((entry) => [entry.action, entry.mode, entry.target_id])).toEqual([
      ['certificate.revoked', 'test', issued.body.id],
      ['certificate.issued', 'test', issued.body.id],
    ]);
    expect(entries[0]).toMatchObject({ before: { status: 'valid' }, after: { status: 'revoked' } });
  });
});

describe('audit of templates', () => {
  it('keeps template.created, template.updated and template.archived; previews record nothing', async () => {
    const org = newOrg(p.ctx);
    const created = await admin(org, 'post', '/templates', 'member').send(templateInput()).expect(201);
    const id = created.body.id as string;
    await admin(org, 'post', '/templates/preview').send(templateInput()).buffer(true).parse(binary).expect(200);
    await admin(org, 'post', `/templates/${id}/preview`).send({ name: 'Drawn, not kept' }).buffer(true).parse(binary).expect(200);
    await admin(org, 'patch', `/templates/${id}`).send({ name: 'Course completion v2' }).expect(200);
    await admin(org, 'post', `/templates/${id}/archive`).send().expect(200);

    const entries = await auditOf(org);
    expect(entries.map((entry) => [entry.action, entry.target_id])).toEqual([
      ['template.archived', id],
      ['template.updated', id],
      ['template.created', id],
    ]);
    expect(entries[1]!.details).toEqual({ name: 'Course completion v2' });
    expect(entries[1]).toMatchObject({ mode: 'live', before: { name: 'Course completion' }, after: { name: 'Course completion v2' } });
    expect(entries[0]).toMatchObject({ before: { status: 'active', archived_at: null }, after: { status: 'archived', archived_at: expect.any(String) } });
  });
});

describe('audit of payments', () => {
  it('keeps plan.checkout_started and credits.checkout_started with the plan, pack and gateway', async () => {
    const org = newOrg(p.ctx);
    const plan = await p.checkout(org, 'starter', 'gateway-a');
    const topUp = await p.topUp(org, 'credits_500', 'gateway-a');
    // A member may not top up: refused, nothing recorded.
    expect((await admin(org, 'post', '/credits/top-ups', 'member').send({ pack: 'credits_500', gateway: 'gateway-a' }).expect(403)).body.code).toBe('insufficient_role');

    const entries = await auditOf(org);
    expect(entries.map((entry) => entry.action)).toEqual(['credits.checkout_started', 'plan.checkout_started']);
    expect(entries[0]).toMatchObject({ target_id: null, details: { pack: 'credits_500', gateway: 'gateway-a' } });
    expect(entries[1]).toMatchObject({ target_id: null, details: { plan: 'starter', gateway: 'gateway-a' } });
    expect([plan.reference, topUp.reference].every((reference) => reference.startsWith('pay_'))).toBe(true);
  });
});
