import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import request from 'supertest';
import { createIssuerKeyCipher } from '../src/features/credentials/issuer-key-cipher';
import { createTestContext, type TestContext } from './helpers/context';
import { binary, pdfText } from './helpers/documents';
import { expectToMatchRouteTable } from './helpers/openapi';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';
import { createTemplate, pngBase64 } from './factories/templates';

/**
 * Each organization issues as itself: its own did:web under the platform's host (`did:web:<host>:issuers:<org>`,
 * resolved at `/issuers/<org>/did.json`) with its own Ed25519 key, stored encrypted, rotatable; and a domain it proves
 * by serving a token, fetched through the shared SSRF guard. The credential page, the PDF and the verifier say
 * "verified domain <domain>" once it is proved, "issuer identity not verified" until then.
 */
const PUBLIC_BASE_URL = 'https://certificates.example.test:8443';
const PLATFORM_DID = 'did:web:certificates.example.test%3A8443';
const UNVERIFIED = 'issuer identity not verified';
let ctx: TestContext;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
});
afterAll(() => ctx.close());

const didOf = (org: TestOrg) => `${PLATFORM_DID}:issuers:${org.org}`;
const jwtOf = async (app: TestContext['app'], code: string) => (await request(app).get(`/credentials/${code}`).set('Accept', 'application/vc+jwt').expect(200)).text;
const credentialJsonOf = async (app: TestContext['app'], code: string) => JSON.parse((await request(app).get(`/credentials/${code}/credential.json`).expect(200)).text);
const verify = async (app: TestContext['app'], body: object) => {
  const res = await request(app).post('/credentials/verify').send(body).expect(200);
  expectToMatchRouteTable(res);
  return res.body as { status: string; valid: boolean; reason: string; credential: { issuer_identity: string } | null };
};

/** The public key of `kid` in the organization's DID document, fetched from the app as a did:web resolver would. */
async function keyFromDidDocument(app: TestContext['app'], org: TestOrg, kid: string) {
  const res = await request(app).get(`/issuers/${org.org}/did.json`).expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/did\+json/);
  const document = JSON.parse(res.text) as { id: string; verificationMethod: Array<{ id: string; publicKeyJwk?: JWK }> };
  expect(document.id).toBe(didOf(org));
  const method = document.verificationMethod.find((candidate) => candidate.id === kid);
  expect(method?.publicKeyJwk).toBeDefined();
  return importJWK(method!.publicKeyJwk!, 'EdDSA');
}

describe("each organization's own issuer DID and key", () => {
  it('serves a did.json per organization; a credential verifies with jose against its own DID key and not another', async () => {
    const kano = newOrg(ctx, { orgName: 'Kano Robotics Institute' });
    const sahel = newOrg(ctx, { orgName: 'Sahel Nursing College' });
    // No key before its first credential: nothing to publish yet.
    await issueCertificate(ctx, kano);
    expect((await request(ctx.app).get(`/issuers/${kano.org}/did.json`).expect(404)).body.code).toBe('not_found');

    const kanoCertificate = await issueCertificate(ctx, kano, { recipient_name: 'Zainab Bello' });
    const sahelCertificate = await issueCertificate(ctx, sahel);
    const jwt = await jwtOf(ctx.app, kanoCertificate.verification_code);
    const otherJwt = await jwtOf(ctx.app, sahelCertificate.verification_code);
    const { kid } = decodeProtectedHeader(jwt);
    expect(kid!.startsWith(`${didOf(kano)}#`)).toBe(true);

    const key = await keyFromDidDocument(ctx.app, kano, kid!);
    const { payload } = await jwtVerify(jwt, key, { issuer: didOf(kano), typ: 'vc+jwt', algorithms: ['EdDSA'] });
    // The OB 3.0 issuer Profile: the organization's DID and name; no url (no proved domain), no image (no logo).
    expect(payload.issuer).toEqual({ id: didOf(kano), type: ['Profile'], name: 'Kano Robotics Institute' });
    // Another organization's credential is signed with another key.
    expect(decodeJwt(otherJwt).iss).toBe(didOf(sahel));
    await expect(compactVerify(otherJwt, key)).rejects.toThrow();

    // The JSON-LD form's proof names the organization's Multikey.
    const credential = await credentialJsonOf(ctx.app, kanoCertificate.verification_code);
    expect(credential.proof.verificationMethod).toMatch(new RegExp(`^${didOf(kano)}#z6Mk`));
    expect(await verify(ctx.app, { credential })).toMatchObject({ status: 'valid', reason: expect.stringContaining(`Kano Robotics Institute (${UNVERIFIED})`) });
    expect(await verify(ctx.app, { credential: jwt })).toMatchObject({ status: 'valid', credential: { issuer_identity: UNVERIFIED } });

    const issuer = await request(ctx.app).get('/admin/v1/issuer').set('Authorization', kano.admin('member')).expect(200);
    expectToMatchRouteTable(issuer);
    expect(issuer.body).toMatchObject({ did: didOf(kano), did_document_url: `${PUBLIC_BASE_URL}/issuers/${kano.org}/did.json`, domain: null, identity: UNVERIFIED, pending_domain: null });
    expect(issuer.body.keys).toEqual([{ id: kid, created_at: expect.any(String), retired_at: null, current: true }]);
    expect((await request(ctx.app).get('/issuers/org_nobody_here/did.json').expect(404)).body.code).toBe('not_found');
  });

  it('stores the private key encrypted (AES-256-GCM under the platform key, bound to its row), never in plaintext', async () => {
    const org = newOrg(ctx);
    await jwtOf(ctx.app, (await issueCertificate(ctx, org)).verification_code);
    const [row, ...others] = await ctx.db('issuer_keys').where({ organization_id: org.org });
    expect(others).toEqual([]);
    expect(row.private_key_encrypted).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    const seed = createIssuerKeyCipher(undefined).decrypt(`${org.org}\n${row.id}`, row.private_key_encrypted);
    expect(seed).toHaveLength(32);
    for (const plain of [seed.toString('base64url'), seed.toString('base64'), seed.toString('hex')]) expect(JSON.stringify(row)).not.toContain(plain);
    // The decrypted seed is the published key's private half.
    const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
    expect((createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }).x).toBe(row.public_x);
    // Bound to its organization and key id, and to the platform key.
    expect(() => createIssuerKeyCipher(undefined).decrypt(`org_other\n${row.id}`, row.private_key_encrypted)).toThrow();
    expect(() => createIssuerKeyCipher('another platform key of enough length 0123456789').decrypt(`${org.org}\n${row.id}`, row.private_key_encrypted)).toThrow();
  });

  it('rotates (owners only, audited): old and new credentials both verify, the old key stays in the DID document', async () => {
    const org = newOrg(ctx, { orgName: 'Lagos Code Academy' });
    const before = await issueCertificate(ctx, org, { recipient_name: 'Before Rotation' });
    const oldJwt = await jwtOf(ctx.app, before.verification_code);
    const oldCredential = await credentialJsonOf(ctx.app, before.verification_code);
    const oldKid = decodeProtectedHeader(oldJwt).kid!;

    expect((await request(ctx.app).post('/admin/v1/issuer/keys/rotate').set('Authorization', org.admin('member')).expect(403)).body.code).toBe('insufficient_role');
    expect((await ctx.db('issuer_keys').where({ organization_id: org.org })).length).toBe(1);
    const rotated = await request(ctx.app).post('/admin/v1/issuer/keys/rotate').set('Authorization', org.admin()).expect(200);
    expectToMatchRouteTable(rotated);
    expect(rotated.body.keys.map((key: { id: string; current: boolean; retired_at: string | null }) => [key.id === oldKid, key.current, key.retired_at === null])).toEqual([
      [true, false, false],
      [false, true, true],
    ]);

    const after = await issueCertificate(ctx, org, { recipient_name: 'After Rotation' });
    const newJwt = await jwtOf(ctx.app, after.verification_code);
    const newKid = decodeProtectedHeader(newJwt).kid!;
    expect(newKid).toBe(rotated.body.keys[1].id);
    // A certificate keeps the key it was first signed with: the same bytes after the rotation.
    expect(await jwtOf(ctx.app, before.verification_code)).toBe(oldJwt);

    // Offline with jose, each against its own key in the (one) DID document; and at the platform's verifier.
    await jwtVerify(oldJwt, await keyFromDidDocument(ctx.app, org, oldKid), { issuer: didOf(org) });
    await jwtVerify(newJwt, await keyFromDidDocument(ctx.app, org, newKid), { issuer: didOf(org) });
    await expect(compactVerify(newJwt, await keyFromDidDocument(ctx.app, org, oldKid))).rejects.toThrow();
    for (const credential of [oldJwt, newJwt, oldCredential, await credentialJsonOf(ctx.app, after.verification_code)]) {
      expect((await verify(ctx.app, { credential })).status).toBe('valid');
    }

    const log = await request(ctx.app).get('/admin/v1/audit-log').set('Authorization', org.admin()).expect(200);
    expect(log.body.data.map((entry: { action: string }) => entry.action)).toContain('issuer.key_rotated');
  });

  it('a certificate signed before organizations had keys keeps verifying under the platform DID', async () => {
    const org = newOrg(ctx);
    const certificate = await issueCertificate(ctx, org);
    // What the migration marks every certificate stored before it.
    await ctx.db('certificates').where({ id: certificate.id }).update({ issuer_key_id: 'platform' });
    const jwt = await jwtOf(ctx.app, certificate.verification_code);
    expect(decodeJwt(jwt).iss).toBe(PLATFORM_DID);
    const platform = JSON.parse((await request(ctx.app).get('/.well-known/did.json').expect(200)).text);
    await jwtVerify(jwt, await importJWK(platform.verificationMethod[0].publicKeyJwk, 'EdDSA'), { issuer: PLATFORM_DID });
    expect((await verify(ctx.app, { credential: jwt })).status).toBe('valid');
    expect((await verify(ctx.app, { credential: await credentialJsonOf(ctx.app, certificate.verification_code) })).status).toBe('valid');
    // ...and the organization got no key for it.
    expect(await ctx.db('issuer_keys').where({ organization_id: org.org })).toEqual([]);
  });

  it("names the organization's logo (its template's) as the issuer Profile's image, and the credential still verifies", async () => {
    const org = newOrg(ctx, { orgName: 'Jos Art School' });
    const template = await createTemplate(ctx, org, { logo: { data: pngBase64(120, 60) } });
    const issued = await request(ctx.app).post('/admin/v1/certificates').set('Authorization', org.admin()).send({ recipient_name: 'Ada', program_title: 'Painting', issue_date: '2026-05-01', template_id: template.id, custom_fields: { grade: 'A' } }).expect(201);
    const code = issued.body.verification_code as string;
    const credential = await credentialJsonOf(ctx.app, code);
    expect(credential.issuer).toEqual({ id: didOf(org), type: ['Profile'], name: 'Jos Art School', image: { id: `${PUBLIC_BASE_URL}/credentials/${code}/logo`, type: 'Image' } });
    expect(decodeJwt(await jwtOf(ctx.app, code)).issuer).toEqual(credential.issuer);
    expect((await verify(ctx.app, { credential })).status).toBe('valid');
  });

  it('refuses a credential claiming an issuer other than the DID whose key signed it', async () => {
    const org = newOrg(ctx);
    const credential = await credentialJsonOf(ctx.app, (await issueCertificate(ctx, org)).verification_code);
    const claimed = { ...credential, issuer: { ...credential.issuer, id: `${PLATFORM_DID}:issuers:org_someone_else` } };
    expect(await verify(ctx.app, { credential: claimed })).toMatchObject({ status: 'tampered', valid: false, credential: null });
  });
});

/** What the three public views say beside the issuer's name: the page, the PDF and the verifier's answer. */
async function publicViews(app: TestContext['app'], code: string) {
  const page = (await request(app).get(`/credentials/${code}`).set('Accept', 'text/html').expect(200)).text;
  const pdf = await pdfText((await request(app).get(`/credentials/${code}/document.pdf`).buffer(true).parse(binary).expect(200)).body as Buffer);
  const verifier = (await request(app).post('/credentials/verify').send({ code }).expect(200)).body as { reason: string; credential: { issuer_identity: string } };
  return { page, pdf, verifier };
}

/** A proof file server on loopback: answers whatever `body` is at the well-known path. */
async function proofServer() {
  const state = { body: '', status: 200, requests: 0 };
  const server = http.createServer((req, res) => {
    state.requests += 1;
    if (req.url !== '/.well-known/partner-platform-issuer.txt') return void res.writeHead(404).end();
    res.writeHead(state.status, { 'Content-Type': 'text/plain' }).end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('domain verification', () => {
  // Loopback and http:// only because this context says so (ISSUER_DOMAIN_ALLOW_*: development and tests only).
  let local: TestContext;
  beforeAll(() => {
    local = createTestContext({ PUBLIC_BASE_URL, ISSUER_DOMAIN_ALLOW_HTTP: 'true', ISSUER_DOMAIN_ALLOW_PRIVATE: 'true' });
  });
  afterAll(() => local.close());

  it('proves a domain served on loopback: wrong token first (nothing changes), then the right one; the page, PDF and verifier say so', async () => {
    const server = await proofServer();
    try {
      const org = newOrg(local, { orgName: 'Abuja Data School' });
      const certificate = await issueCertificate(local, org);
      const before = await publicViews(local.app, certificate.verification_code);
      expect(before.page).toContain(`Abuja Data School (name not verified) · ${UNVERIFIED}`);
      expect(before.pdf).toContain(`Abuja Data School — ${UNVERIFIED}`);
      expect(before.verifier.reason).toContain(`Abuja Data School (${UNVERIFIED})`);
      expect(before.verifier.credential.issuer_identity).toBe(UNVERIFIED);

      const noStart = await request(local.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', org.admin()).expect(409);
      expect(noStart.body.code).toBe('no_domain_verification');
      const domain = `127.0.0.1:${server.port}`;
      expect((await request(local.app).post('/admin/v1/issuer/domain-verification').set('Authorization', org.admin('member')).send({ domain }).expect(403)).body.code).toBe('insufficient_role');
      const started = await request(local.app).post('/admin/v1/issuer/domain-verification').set('Authorization', org.admin()).send({ domain }).expect(201);
      expectToMatchRouteTable(started);
      expect(started.body).toEqual({ domain, token: expect.stringMatching(/^ppi-[A-Za-z0-9_-]{32}$/), proof_url: `http://${domain}/.well-known/partner-platform-issuer.txt`, instructions: expect.any(String) });

      server.state.body = 'ppi-not-the-token\n';
      const wrong = await request(local.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', org.admin()).expect(422);
      expectToMatchRouteTable(wrong);
      expect(wrong.body.code).toBe('domain_proof_mismatch');
      server.state.status = 404;
      expect((await request(local.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', org.admin()).expect(422)).body.code).toBe('domain_unreachable');
      const unchanged = await request(local.app).get('/admin/v1/issuer').set('Authorization', org.admin()).expect(200);
      expect(unchanged.body).toMatchObject({ domain: null, identity: UNVERIFIED, pending_domain: { domain, token: started.body.token } });

      server.state.status = 200;
      server.state.body = `${started.body.token}\n`;
      const checked = await request(local.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', org.admin()).expect(200);
      expectToMatchRouteTable(checked);
      expect(checked.body).toMatchObject({ domain, domain_verified_at: expect.any(String), identity: `verified domain ${domain}`, pending_domain: null });

      const after = await publicViews(local.app, certificate.verification_code);
      expect(after.page).toContain(`Abuja Data School (name not verified) · verified domain ${domain}`);
      expect(after.page).not.toContain(UNVERIFIED);
      // The stored PDF was drawn again: it says so too.
      expect(after.pdf).toContain(`Abuja Data School — verified domain ${domain}`);
      expect(after.pdf).not.toContain(UNVERIFIED);
      expect(after.verifier.reason).toContain(`Abuja Data School (verified domain ${domain})`);
      // The credential names the domain as the issuer's url; one downloaded now verifies and says it.
      const credential = await credentialJsonOf(local.app, certificate.verification_code);
      expect(credential.issuer).toEqual({ id: didOf(org), type: ['Profile'], name: 'Abuja Data School', url: `https://${domain}` });
      expect(await verify(local.app, { credential })).toMatchObject({ status: 'valid', reason: expect.stringContaining(`verified domain ${domain}`), credential: { issuer_identity: `verified domain ${domain}` } });
      const log = await request(local.app).get('/admin/v1/audit-log').set('Authorization', org.admin()).expect(200);
      expect(log.body.data.map((entry: { action: string }) => entry.action)).toEqual(expect.arrayContaining(['issuer.domain_verified', 'issuer.domain_verification_started']));
    } finally {
      await server.close();
    }
  }, 60_000);

  it('a domain that does not answer is a 422 domain_unreachable', async () => {
    const server = await proofServer();
    await server.close(); // a port nothing listens on any more
    const org = newOrg(local);
    await issueCertificate(local, org);
    await request(local.app).post('/admin/v1/issuer/domain-verification').set('Authorization', org.admin()).send({ domain: `127.0.0.1:${server.port}` }).expect(201);
    const res = await request(local.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', org.admin()).expect(422);
    expect(res.body).toMatchObject({ code: 'domain_unreachable' });
  });

  it('without the development settings, the SSRF guard refuses loopback, private and unresolvable domains with a 4xx JSON', async () => {
    const server = await proofServer();
    try {
      const org = newOrg(ctx);
      await issueCertificate(ctx, org);
      // A port is not even a domain here.
      const withPort = await request(ctx.app).post('/admin/v1/issuer/domain-verification').set('Authorization', org.admin()).send({ domain: `127.0.0.1:${server.port}` }).expect(422);
      expect(withPort.body.code).toBe('validation_failed');
      expect((await request(ctx.app).post('/admin/v1/issuer/domain-verification').set('Authorization', org.admin()).send({ domain: 'not a domain' }).expect(422)).body.code).toBe('validation_failed');
      for (const domain of ['127.0.0.1', 'localhost', '10.1.2.3', '169.254.169.254', 'does-not-exist.invalid']) {
        const started = await request(ctx.app).post('/admin/v1/issuer/domain-verification').set('Authorization', org.admin()).send({ domain }).expect(201);
        expect(started.body.proof_url).toBe(`https://${domain}/.well-known/partner-platform-issuer.txt`);
        const refused = await request(ctx.app).post('/admin/v1/issuer/domain-verification/check').set('Authorization', org.admin()).expect(422);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(refused.body).toMatchObject({ code: 'domain_refused', error: expect.stringContaining('public addresses') });
        // The answer does not say what the name resolved to.
        if (domain === 'localhost') expect(refused.text).not.toMatch(/127\.0\.0\.1|::1/);
      }
      expect(server.state.requests).toBe(0);
      expect((await request(ctx.app).get('/admin/v1/issuer').set('Authorization', org.admin()).expect(200)).body.domain).toBeNull();
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('operator CLI: organizations verify-domain', () => {
  const serviceDir = path.resolve(__dirname, '..');
  const runCli = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', ...args], { cwd: serviceDir, env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, PUBLIC_BASE_URL } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('marks an organization as controlling a domain; its page, PDF, verifier answer and credential say so', async () => {
    const org = newOrg(ctx, { orgName: 'Kaduna Polytechnic' });
    const certificate = await issueCertificate(ctx, org);
    const marked = await runCli(['organizations', 'verify-domain', org.org, 'Academy.Example.org']);
    expect(marked.stderr).toBe('');
    expect(marked.code).toBe(0);
    expect(JSON.parse(marked.stdout)).toEqual({ id: org.org, name: 'Kaduna Polytechnic', domain: 'academy.example.org', domain_verified_at: expect.any(String) });

    const views = await publicViews(ctx.app, certificate.verification_code);
    expect(views.page).toContain('Kaduna Polytechnic (name not verified) · verified domain academy.example.org');
    expect(views.pdf).toContain('Kaduna Polytechnic — verified domain academy.example.org');
    expect(views.verifier.reason).toContain('Kaduna Polytechnic (verified domain academy.example.org)');
    expect(decodeJwt(await jwtOf(ctx.app, certificate.verification_code)).issuer).toMatchObject({ url: 'https://academy.example.org' });

    const bad = await runCli(['organizations', 'verify-domain', org.org, 'not a domain']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('domain');
    const missing = await runCli(['organizations', 'verify-domain', org.org]);
    expect(missing.code).toBe(2);
    const unknown = await runCli(['organizations', 'verify-domain', 'org_does_not_exist', 'example.org']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('not_found');
  }, 60_000);
});
