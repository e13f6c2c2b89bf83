import request from 'supertest';
import { createTestContext, type TestContext } from './helpers/context';
import { certificateInput, issueCertificate, newOrg, type TestOrg } from './factories/admin';

let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(() => ctx.close());

const post = (org: TestOrg, path: string) => request(ctx.app).post(`/admin/v1/certificates${path}`).set('Authorization', org.admin('member', `member_${org.org}`));
const balanceOf = async (org: TestOrg) => (await ctx.db('organizations').where({ id: org.org }).first())?.balance;
const countOf = async (org: TestOrg) => (await ctx.db('certificates').where({ organization_id: org.org })).length;

describe('POST /admin/v1/certificates', () => {
  it('issues a certificate for one credit, with a generated number when none is given', async () => {
    const org = newOrg(ctx);
    const res = await post(org, '').send(certificateInput({ expires_on: '2030-01-01' })).expect(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^cert_/),
      certificate_number: expect.stringMatching(/^CERT-2026-[0-9A-F]{10}$/),
      recipient_name: 'Ada Lovelace',
      issue_date: '2026-05-01',
      expires_on: '2030-01-01',
      status: 'valid',
      revoked_at: null,
    });
    expect(await balanceOf(org)).toBe(9);
  });

  it.each([
    ['wrong types', { recipient_name: 5, program_title: ['x'], issue_date: 20260101 }, ['recipient_name', 'program_title', 'issue_date']],
    ['an impossible date', certificateInput({ issue_date: '2026-02-30' }), ['issue_date']],
    ['a date in another format', certificateInput({ issue_date: '01/05/2026' }), ['issue_date']],
    ['expiry before issue', certificateInput({ expires_on: '2020-01-01' }), ['expires_on']],
    ['an unknown field', certificateInput({ grade: 'A' }), ['(body)']],
    ['an SQL-looking number', certificateInput({ certificate_number: "1'; drop table certificates; --" }), ['certificate_number']],
  ])('refuses %s with 422 details and spends nothing', async (_label, body, paths) => {
    const org = newOrg(ctx);
    const res = await post(org, '').send(body).expect(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([...paths].sort());
    expect(await balanceOf(org)).toBe(10);
    expect(await countOf(org)).toBe(0);
  });

  it('refuses a duplicate certificate number with 409 and keeps the credit', async () => {
    const org = newOrg(ctx);
    await issueCertificate(ctx, org, { certificate_number: 'DUP-1' });
    const res = await post(org, '').send(certificateInput({ certificate_number: 'DUP-1' })).expect(409);
    expect(res.body.code).toBe('certificate_number_taken');
    expect(await balanceOf(org)).toBe(9);
  });

  it('refuses a non-JSON body with 415', async () => {
    const org = newOrg(ctx);
    await post(org, '').set('Content-Type', 'text/plain').send('recipient').expect(415);
  });
});

describe('POST /admin/v1/certificates/batch', () => {
  it('issues a JSON batch, all in one go', async () => {
    const org = newOrg(ctx);
    const res = await post(org, '/batch')
      .send({ certificates: [certificateInput(), certificateInput({ recipient_name: 'Grace Hopper' })] })
      .expect(201);
    expect(res.body.data.map((c: { recipient_name: string }) => c.recipient_name)).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(await balanceOf(org)).toBe(8);
  });

  it('issues a CSV upload with a header row', async () => {
    const org = newOrg(ctx);
    const csv = 'recipient_name,program_title,issue_date,certificate_number\n"Lovelace, Ada",Engines,2026-01-02,CSV-1\nGrace Hopper,Compilers,2026-01-03,\n';
    const res = await post(org, '/batch').set('Content-Type', 'text/csv').send(csv).expect(201);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({ recipient_name: 'Lovelace, Ada', certificate_number: 'CSV-1', issue_date: '2026-01-02' });
    expect(res.body.data[1].certificate_number).toMatch(/^CERT-2026-/);
  });

  it('is all or nothing: one bad row is a 422 naming it, and nothing is issued or spent', async () => {
    const org = newOrg(ctx);
    const res = await post(org, '/batch')
      .send({ certificates: [certificateInput(), certificateInput({ issue_date: 'tomorrow' }), certificateInput({ recipient_name: '' })] })
      .expect(422);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['certificates.1.issue_date', 'certificates.2.recipient_name']);
    expect(await countOf(org)).toBe(0);
    expect(await balanceOf(org)).toBe(10);
  });

  it('refuses a CSV with a bad date, an empty CSV and a CSV without the required columns', async () => {
    const org = newOrg(ctx);
    const badDate = await post(org, '/batch').set('Content-Type', 'text/csv').send('recipient_name,program_title,issue_date\nAda,Engines,2026-13-01\n').expect(422);
    expect(badDate.body.details).toEqual([{ path: 'certificates.0.issue_date', message: expect.any(String) }]);
    const empty = await post(org, '/batch').set('Content-Type', 'text/csv').send('').expect(422);
    expect(empty.body.code).toBe('validation_failed');
    const headerOnly = await post(org, '/batch').set('Content-Type', 'text/csv').send('recipient_name,program_title,issue_date\n').expect(422);
    expect(headerOnly.body.details[0].path).toBe('certificates');
    const columns = await post(org, '/batch').set('Content-Type', 'text/csv').send('name,date\nAda,2026-01-01\n').expect(422);
    expect(columns.body.details.map((d: { path: string }) => d.path)).toContain('(header).recipient_name');
    const ragged = await post(org, '/batch').set('Content-Type', 'text/csv').send('recipient_name,program_title,issue_date\nAda,"unclosed\n').expect(422);
    expect(ragged.body.details[0].path).toBe('(csv)');
    expect(await countOf(org)).toBe(0);
  });

  it('refuses a batch larger than the balance with 402 and issues none of it', async () => {
    const org = newOrg(ctx);
    const certificates = Array.from({ length: 11 }, (_, i) => certificateInput({ recipient_name: `P${i}` }));
    const res = await post(org, '/batch').send({ certificates }).expect(402);
    expect(res.body.error).toBe('Insufficient certificate credits');
    expect(await countOf(org)).toBe(0);
    expect(await balanceOf(org)).toBe(10);
  });

  it('refuses other content types with 415', async () => {
    const org = newOrg(ctx);
    await post(org, '/batch').set('Content-Type', 'application/xml').send('<a/>').expect(415);
  });
});

describe('certificates: read, list and revoke', () => {
  it('revokes a certificate of the organization; another organization gets 404', async () => {
    const org = newOrg(ctx);
    const other = newOrg(ctx);
    const cert = await issueCertificate(ctx, org);
    await request(ctx.app).post(`/admin/v1/certificates/${cert.id}/revoke`).set('Authorization', other.admin()).expect(404);
    const res = await request(ctx.app).post(`/admin/v1/certificates/${cert.id}/revoke`).set('Authorization', org.admin()).expect(200);
    expect(res.body).toMatchObject({ id: cert.id, status: 'revoked', revoked_at: expect.any(String) });
    await request(ctx.app).get(`/admin/v1/certificates/${cert.id}`).set('Authorization', org.admin()).expect(200);
  });

  it('answers IDs of the wrong shape with 404', async () => {
    const org = newOrg(ctx);
    for (const id of ['nope', "cert_' or 1=1", 'cert_' + 'z'.repeat(500)]) {
      const res = await request(ctx.app).post(`/admin/v1/certificates/${encodeURIComponent(id)}/revoke`).set('Authorization', org.admin()).expect(404);
      expect(res.body).toMatchObject({ error: 'Certificate not found', code: 'not_found' });
    }
  });

  it('pages through the list with a cursor', async () => {
    const org = newOrg(ctx);
    await post(org, '/batch').send({ certificates: [certificateInput(), certificateInput(), certificateInput()] }).expect(201);
    const first = await request(ctx.app).get('/admin/v1/certificates?limit=2').set('Authorization', org.admin()).expect(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const second = await request(ctx.app).get(`/admin/v1/certificates?limit=2&cursor=${first.body.next_cursor}`).set('Authorization', org.admin()).expect(200);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data).toHaveLength(1);
    expect(first.body.data.map((c: { id: string }) => c.id)).not.toContain(second.body.data[0].id);
    // `starting_after`, the cursor's first name, is still accepted as an alias.
    const alias = await request(ctx.app).get(`/admin/v1/certificates?limit=2&starting_after=${first.body.next_cursor}`).set('Authorization', org.admin()).expect(200);
    expect(alias.body).toEqual(second.body);
    await request(ctx.app).get('/admin/v1/certificates?limit=abc').set('Authorization', org.admin()).expect(422);
  });
});
