import { createHash } from 'node:crypto';
import request from 'supertest';
import { decodeJwt } from 'jose';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, qrCodeIn } from './helpers/documents';
import type { ReceivedMail } from './helpers/mailbox';
import { expectToMatchRouteTable } from './helpers/openapi';
import { certificateInput, newOrg, type TestOrg } from './factories/admin';

/**
 * Recipients: a certificate issued with a `recipient_email` names the recipient in its Open Badges credential by the
 * address's salted SHA-256 (never the address), and the recipient is mailed its links (page, PDF, LinkedIn, wallet
 * and a QR code of the page) once the issue has committed. The delivery shows on the certificate; the issuer resends.
 */
let ctx: TestContext;
beforeAll(() => {
  ctx = createTestContext();
});
afterAll(async () => {
  await ctx.services.recipientDeliveries.idle();
  await ctx.close();
});

const app = () => request(ctx.app);
const balanceOf = async (org: TestOrg) => (await ctx.db('organizations').where({ id: org.org }).first())?.balance as number;
const certificatesOf = async (org: TestOrg) => ctx.db('certificates').where({ organization_id: org.org }).select('id');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const uniqueEmail = (name: string) => `${name}.${Math.random().toString(36).slice(2, 10)}@example.org`;

interface Certificate {
  id: string;
  verification_code: string;
  recipient_email: string | null;
  delivery: null | { status: string; last_error: string | null; sent_at: string | null };
  livemode: boolean;
}

async function issue(org: TestOrg, overrides: Record<string, unknown> = {}, mode = '') {
  const res = await app().post(`/admin/v1/certificates${mode}`).set('Authorization', org.admin()).send(certificateInput(overrides));
  expect(res.status).toBe(201);
  expectToMatchRouteTable(res);
  return res.body as Certificate;
}

/** The certificate once its background delivery has ended (it is `pending` until then). */
async function delivered(org: TestOrg, id: string, mode = ''): Promise<Certificate> {
  await ctx.services.recipientDeliveries.idle();
  const res = await app().get(`/admin/v1/certificates/${id}${mode}`).set('Authorization', org.admin()).expect(200);
  expectToMatchRouteTable(res);
  return res.body as Certificate;
}

/** The links of a mail's text, each on its own line. */
const linksIn = (mail: ReceivedMail) => mail.text.split('\n').filter((line) => /^https?:\/\//.test(line));
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** A public document is served once rendered: the app answers 202 while it renders. */
async function fetchDocument(path: string) {
  for (let tries = 0; ; tries += 1) {
    const res = await app().get(path).buffer(true).parse(binary);
    if (res.status !== 202 || tries > 50) return res;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the recipient in the credential', () => {
  it('names the email by an IdentityObject whose identityHash is sha256(lowercased email + salt), in the JWT and in credential.json', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('Ada.Obi').replace('ada', 'ADA');
    const certificate = await issue(org, { recipient_email: email });
    expect(certificate).toMatchObject({ recipient_email: email, delivery: { status: 'pending', last_error: null, sent_at: null } });

    const jwt = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+jwt').expect(200);
    const json = await app().get(`/credentials/${certificate.verification_code}/credential.json`).expect(200);
    for (const credential of [decodeJwt(jwt.text) as Record<string, unknown>, JSON.parse(json.text) as Record<string, unknown>]) {
      const identifier = (credential.credentialSubject as { identifier: Array<Record<string, unknown>> }).identifier;
      expect(identifier[0]).toEqual({ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: 'Ada Lovelace' });
      const byEmail = identifier.find((identity) => identity.identityType === 'emailAddress')!;
      expect(byEmail).toEqual({ type: 'IdentityObject', identityHash: expect.stringMatching(/^sha256\$[0-9a-f]{64}$/), identityType: 'emailAddress', hashed: true, salt: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(byEmail.identityHash).toBe(`sha256$${sha256(email.toLowerCase() + String(byEmail.salt))}`);
      expect(JSON.stringify(credential)).not.toContain(email.toLowerCase().split('@')[0]!);
    }
    // Both forms still verify with the identity in them (its terms are in the OB 3.0 context), and a changed salt does not.
    expect((await app().post('/credentials/verify').send({ credential: jwt.text }).expect(200)).body.status).toBe('valid');
    const withProof = JSON.parse(json.text) as { credentialSubject: { identifier: Array<Record<string, unknown>> } };
    expect((await app().post('/credentials/verify').send({ credential: withProof }).expect(200)).body.status).toBe('valid');
    withProof.credentialSubject.identifier[1]!.salt = '00'.repeat(16);
    expect((await app().post('/credentials/verify').send({ credential: withProof }).expect(200)).body.status).toBe('tampered');
    // The public page's JSON shows nothing of the address.
    const page = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/json').expect(200);
    expect(JSON.stringify(page.body)).not.toMatch(/example\.org|sha256/);
  });

  it('salts each certificate on its own: the same address hashes differently', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('grace');
    const hashes = [];
    for (const certificate of [await issue(org, { recipient_email: email }), await issue(org, { recipient_email: email })]) {
      const json = await app().get(`/credentials/${certificate.verification_code}/credential.json`).expect(200);
      hashes.push((JSON.parse(json.text) as { credentialSubject: { identifier: Array<{ identityHash: string }> } }).credentialSubject.identifier[1]!.identityHash);
    }
    expect(new Set(hashes).size).toBe(2);
  });

  it('has only the name identifier without an email, and no delivery', async () => {
    const org = newOrg(ctx);
    const certificate = await issue(org);
    expect(certificate).toMatchObject({ recipient_email: null, delivery: null });
    const json = await app().get(`/credentials/${certificate.verification_code}/credential.json`).expect(200);
    expect((JSON.parse(json.text) as { credentialSubject: { identifier: unknown[] } }).credentialSubject.identifier).toEqual([
      { type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: 'Ada Lovelace' },
    ]);
    await ctx.services.recipientDeliveries.idle();
    expect((await app().get(`/admin/v1/certificates/${certificate.id}`).set('Authorization', org.admin()).expect(200)).body.delivery).toBeNull();
  });
});

describe('the recipient mail', () => {
  it('arrives with the page, PDF, LinkedIn and wallet links (each served by the app) and a QR code of the page; the certificate shows it sent', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('ada');
    const certificate = await issue(org, { recipient_email: email, program_title: 'Welding & <Safety>' });
    const mail = await ctx.mailbox.arrived(email);
    const shown = await delivered(org, certificate.id);
    expect(shown.delivery).toEqual({ status: 'sent', last_error: null, sent_at: expect.any(String) });

    expect(mail.subject).toBe(`Your certificate: Welding & <Safety>, from ${org.orgName}`);
    const [page, pdf, linkedIn, wallet] = linksIn(mail);
    const code = certificate.verification_code;
    expect(page).toBe(`${ctx.config.PUBLIC_BASE_URL.replace(/\/+$/, '')}/credentials/${code}`);
    expect(pdf).toBe(`${page}/document.pdf`);
    expect(wallet).toBe(`${page}/credential.json`);
    const linkedInUrl = new URL(linkedIn!);
    expect(linkedInUrl.origin + linkedInUrl.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(linkedInUrl.searchParams)).toMatchObject({ startTask: 'CERTIFICATION_NAME', name: 'Welding & <Safety>', organizationName: org.orgName, certUrl: page, certId: code });

    // The HTML part has the same links (escaped) and shows the QR code inline.
    for (const url of [page!, pdf!, linkedIn!, wallet!]) expect(mail.html).toContain(`href="${url.replace(/&/g, '&amp;')}"`);
    expect(mail.html).toContain('Welding &amp; &lt;Safety&gt;');
    const qr = mail.attachments.find((attachment) => mail.html.includes(`cid:${attachment.cid}`))!;
    expect(qr.contentType).toBe('image/png');
    expect(await qrCodeIn(qr.content)).toBe(page);

    // Every link of ours works against the app.
    const html = await app().get(pathOf(page!)).expect(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    const document = await fetchDocument(pathOf(pdf!));
    expect(document.status).toBe(200);
    expect(document.headers['content-type']).toBe('application/pdf');
    expect((document.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    const json = await app().get(pathOf(wallet!)).expect(200);
    expect(JSON.parse(json.text)).toMatchObject({ type: ['VerifiableCredential', 'OpenBadgeCredential'], id: page });
  });

  it('mails every row of a batch (JSON and CSV) that has an email, and only those', async () => {
    const org = newOrg(ctx);
    const [ada, grace, alan] = [uniqueEmail('ada'), uniqueEmail('grace'), uniqueEmail('alan')];
    const json = await app()
      .post('/admin/v1/certificates/batch')
      .set('Authorization', org.admin())
      .send({ certificates: [certificateInput({ recipient_email: ada }), certificateInput({ recipient_name: 'No Mail' }), certificateInput({ recipient_name: 'Grace Hopper', recipient_email: grace })] })
      .expect(201);
    expectToMatchRouteTable(json);
    expect((json.body.data as Certificate[]).map((c) => [c.recipient_email, c.delivery?.status ?? null])).toEqual([
      [ada, 'pending'],
      [null, null],
      [grace, 'pending'],
    ]);
    const csv = await app()
      .post('/admin/v1/certificates/batch')
      .set('Authorization', org.admin())
      .set('Content-Type', 'text/csv')
      .send(`recipient_name,program_title,issue_date,recipient_email\nAlan Turing,Computability,2026-05-01,${alan}\nNobody,Computability,2026-05-01,\n`)
      .expect(201);
    expect((csv.body.data as Certificate[]).map((c) => c.recipient_email)).toEqual([alan, null]);

    await ctx.mailbox.arrived(ada);
    expect((await ctx.mailbox.arrived(grace)).text).toContain('Grace Hopper');
    expect((await ctx.mailbox.arrived(alan)).subject).toBe(`Your certificate: Computability, from ${org.orgName}`);
    await ctx.services.recipientDeliveries.idle();
    const list = await app().get('/admin/v1/certificates').set('Authorization', org.admin()).expect(200);
    expect((list.body.data as Certificate[]).map((c) => c.delivery?.status ?? null).sort()).toEqual([null, null, 'sent', 'sent', 'sent']);
  });

  it('resends on POST /resend: a second mail, the delivery sent again, and an audit entry', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('resend');
    const certificate = await issue(org, { recipient_email: email });
    const first = await ctx.mailbox.arrived(email);
    const sentBefore = (await delivered(org, certificate.id)).delivery!.sent_at!;

    const res = await app().post(`/admin/v1/certificates/${certificate.id}/resend`).set('Authorization', org.admin()).expect(200);
    expectToMatchRouteTable(res);
    expect(res.body).toMatchObject({ id: certificate.id, delivery: { status: 'sent', last_error: null } });
    expect(Date.parse(res.body.delivery.sent_at)).toBeGreaterThanOrEqual(Date.parse(sentBefore));
    expect(ctx.mailbox.to(email)).toHaveLength(2);
    expect(ctx.mailbox.last(email).text).toBe(first.text);
    const audit = await app().get('/admin/v1/audit-log').set('Authorization', org.admin()).expect(200);
    expect((audit.body.data as Array<{ action: string }>).map((entry) => entry.action)).toContain('certificate.mail_resent');
  });

  it('refuses to resend without an email, for a revoked certificate, or for another organization (nothing sent)', async () => {
    const org = newOrg(ctx);
    const withoutEmail = await issue(org);
    const none = await app().post(`/admin/v1/certificates/${withoutEmail.id}/resend`).set('Authorization', org.admin()).expect(409);
    expectToMatchRouteTable(none);
    expect(none.body.code).toBe('no_recipient_email');

    const email = uniqueEmail('revoked');
    const revoked = await issue(org, { recipient_email: email });
    await ctx.mailbox.arrived(email);
    await delivered(org, revoked.id);
    await app().post(`/admin/v1/certificates/${revoked.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const refused = await app().post(`/admin/v1/certificates/${revoked.id}/resend`).set('Authorization', org.admin()).expect(409);
    expect(refused.body.code).toBe('certificate_revoked');

    const other = newOrg(ctx);
    expect((await app().post(`/admin/v1/certificates/${revoked.id}/resend`).set('Authorization', other.admin()).expect(404)).body.code).toBe('not_found');
    expect(ctx.mailbox.to(email)).toHaveLength(1);
  });

  it('records an SMTP refusal (5xx) as bounced with the server\'s answer, on the certificate and the list; a resend still refused stays bounced', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('nobody');
    ctx.mailbox.refuse(email, 'No such user here');
    const certificate = await issue(org, { recipient_email: email });
    const shown = await delivered(org, certificate.id);
    expect(shown).toMatchObject({ recipient_email: email, status: 'valid', delivery: { status: 'bounced', sent_at: null, last_error: expect.stringContaining('550') } });
    expect(shown.delivery!.last_error).toContain('No such user here');
    expect(ctx.mailbox.to(email)).toHaveLength(0);

    // The list shows it too; a resend while the server still refuses stays bounced (answered 200 with it).
    const list = await app().get('/admin/v1/certificates').set('Authorization', org.admin()).expect(200);
    expect((list.body.data as Certificate[]).find((c) => c.id === certificate.id)!.delivery!.status).toBe('bounced');
    const again = await app().post(`/admin/v1/certificates/${certificate.id}/resend`).set('Authorization', org.admin()).expect(200);
    expect(again.body.delivery).toMatchObject({ status: 'bounced', last_error: expect.stringContaining('No such user here') });
  });

  it('records failed (not bounced) when the SMTP server cannot be reached, and keeps the certificate', async () => {
    const unreachable = createTestContext({ SMTP_URL: 'smtp://127.0.0.1:9' });
    try {
      const org = newOrg(unreachable);
      const res = await request(unreachable.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput({ recipient_email: uniqueEmail('lost') })).expect(201);
      await unreachable.services.recipientDeliveries.idle();
      const shown = await request(unreachable.app).get(`/admin/v1/certificates/${res.body.id}`).set('Authorization', org.admin()).expect(200);
      expect(shown.body).toMatchObject({ status: 'valid', delivery: { status: 'failed', sent_at: null, last_error: expect.any(String) } });
      expect(shown.body.delivery.last_error).not.toContain('127.0.0.1');
    } finally {
      await unreachable.close();
    }
  });

  it('mails a test certificate too, saying TEST, without the LinkedIn and wallet links (a test certificate has no signed credential)', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('tester');
    const certificate = await issue(org, { recipient_email: email }, '?mode=test');
    expect(certificate.livemode).toBe(false);
    const mail = await ctx.mailbox.arrived(email);
    expect(mail.subject).toBe(`[TEST] Your certificate: Analytical Engines 101, from ${org.orgName}`);
    expect(mail.text).toMatch(/^TEST: this certificate was issued in test mode/);
    const links = linksIn(mail);
    expect(links).toHaveLength(2);
    expect(links.some((link) => link.includes('linkedin') || link.endsWith('credential.json'))).toBe(false);
    await app().get(pathOf(links[0]!)).expect(200);
    expect((await delivered(org, certificate.id, '?mode=test')).delivery!.status).toBe('sent');
    const resent = await app().post(`/admin/v1/certificates/${certificate.id}/resend?mode=test`).set('Authorization', org.admin()).expect(200);
    expect(resent.body.delivery.status).toBe('sent');
    // A live session does not find it.
    await app().post(`/admin/v1/certificates/${certificate.id}/resend`).set('Authorization', org.admin()).expect(404);
  });
});

describe('a mail a stopped process left pending', () => {
  it('is sent by the sweep once it has been pending 10 minutes, and not before', async () => {
    const org = newOrg(ctx);
    const email = uniqueEmail('swept');
    const certificate = await issue(org, { recipient_email: email });
    await ctx.mailbox.arrived(email);
    await ctx.services.recipientDeliveries.idle();
    // As if the process had stopped between the commit and the send.
    await ctx.db('certificates').where({ id: certificate.id }).update({ delivery_status: 'pending', delivery_sent_at: null, delivery_updated_at: ctx.db.raw("now() - interval '5 minutes'") });
    await ctx.services.recipientDeliveries.sweep();
    expect(ctx.mailbox.to(email)).toHaveLength(1);
    await ctx.db('certificates').where({ id: certificate.id }).update({ delivery_updated_at: ctx.db.raw("now() - interval '11 minutes'") });
    expect(await ctx.services.recipientDeliveries.sweep()).toBeGreaterThanOrEqual(1);
    expect(ctx.mailbox.to(email)).toHaveLength(2);
    expect((await delivered(org, certificate.id)).delivery).toMatchObject({ status: 'sent', last_error: null });
  });
});

describe('a bad recipient_email', () => {
  it.each([['not-an-address'], ['two@@example.org'], [`${'a'.repeat(250)}@example.org`]])('%s is a 422 naming it: nothing issued, spent or mailed', async (bad) => {
    const org = newOrg(ctx);
    await issue(org); // makes the organization (10 free credits) and spends one
    const balance = await balanceOf(org);
    const before = await certificatesOf(org);

    const one = await app().post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput({ recipient_email: bad })).expect(422);
    expectToMatchRouteTable(one);
    expect(one.body.details).toEqual([expect.objectContaining({ path: 'recipient_email' })]);

    const batch = await app()
      .post('/admin/v1/certificates/batch')
      .set('Authorization', org.admin())
      .send({ certificates: [certificateInput({ recipient_email: uniqueEmail('fine') }), certificateInput({ recipient_email: bad })] })
      .expect(422);
    expect(batch.body.details).toEqual([expect.objectContaining({ path: 'certificates.1.recipient_email' })]);

    const csv = await app()
      .post('/admin/v1/certificates/batch')
      .set('Authorization', org.admin())
      .set('Content-Type', 'text/csv')
      .send(`recipient_name,program_title,issue_date,recipient_email\nAda,Welding,2026-05-01,"${bad}"\n`)
      .expect(422);
    expect(csv.body.details).toEqual([expect.objectContaining({ path: 'certificates.0.recipient_email' })]);

    expect(await balanceOf(org)).toBe(balance);
    expect(await certificatesOf(org)).toEqual(before);
    await ctx.services.recipientDeliveries.idle();
    expect(ctx.mailbox.to(bad)).toHaveLength(0);
  });
});

describe("the governor's mail budget", () => {
  it('paces recipient mails: while the account holds its mail units a resend is 429 and an issued mail waits, then goes', async () => {
    const limited = createTestContext({ GOVERNOR_MAIL_PER_ACCOUNT: '1' });
    try {
      const org = newOrg(limited);
      const email = uniqueEmail('paced');
      const show = async (id: string) => (await request(limited.app).get(`/admin/v1/certificates/${id}`).set('Authorization', org.admin()).expect(200)).body as Certificate;
      // The organization's one mail unit is taken, as by an invitation being mailed.
      await request(limited.app).get('/admin/v1/certificates').set('Authorization', org.admin()).expect(200); // the organization exists
      const release = limited.services.governor.mail!.acquire(await limited.services.tenants.ofOrganization(org.org));
      const issued = await request(limited.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send(certificateInput({ recipient_email: email })).expect(201);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(limited.mailbox.to(email)).toHaveLength(0);
      expect((await show(issued.body.id)).delivery!.status).toBe('pending');
      const refused = await request(limited.app).post(`/admin/v1/certificates/${issued.body.id}/resend`).set('Authorization', org.admin()).expect(429);
      expect(refused.body.code).toBe('too_many_in_flight');

      release();
      await limited.mailbox.arrived(email);
      await limited.services.recipientDeliveries.idle();
      expect((await show(issued.body.id)).delivery!.status).toBe('sent');
      expect(limited.mailbox.to(email)).toHaveLength(1);
    } finally {
      await limited.services.recipientDeliveries.idle();
      await limited.close();
    }
  });
});
