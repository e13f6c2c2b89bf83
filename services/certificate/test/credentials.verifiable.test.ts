import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import request from 'supertest';
import { parseConfig } from '@platform/service-kit/config';
import { certificateConfigSchema } from '../src/config';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';

/**
 * Every certificate is an Open Badges 3.0 credential signed (Ed25519, vc+jwt) by its organization's own did:web, served
 * by the platform under its host (older ones by the platform's did:web), its revocation a bit in a Bitstring Status List
 * the platform signs. (Issuers' keys, rotation and domains are credentials.issuers.test.ts's.) (Its JSON-LD form, with an
 * embedded Data Integrity proof, is credentials.data-integrity.test.ts's.)
 */
const PUBLIC_BASE_URL = 'https://certificates.example.test:8443';
const DID = 'did:web:certificates.example.test%3A8443';
let ctx: TestContext;
let org: TestOrg;

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
  org = newOrg(ctx, { orgName: 'Kano Robotics Institute' });
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);
const revoke = (id: string) => app().post(`/admin/v1/certificates/${id}/revoke`).set('Authorization', org.admin()).expect(200);

async function downloadCredentialJwt(code: string): Promise<string> {
  const res = await app().get(`/credentials/${code}`).set('Accept', 'application/vc+jwt').expect(200);
  expect(res.headers['content-type']).toMatch(/^application\/vc\+jwt/);
  return res.text;
}

/** The JWT as a VC 2.0 `EnvelopedVerifiableCredential`, as JSON-LD consumers of VC-JOSE pass it around. */
const envelope = (jwt: string) => ({ '@context': ['https://www.w3.org/ns/credentials/v2'], id: `data:application/vc+jwt,${jwt}`, type: 'EnvelopedVerifiableCredential' });

/** The status list's bit at `index`: multibase `u` + base64url of the gzipped bitstring, bit 0 the left-most. */
function bitAt(encodedList: string, index: number): number {
  expect(encodedList[0]).toBe('u');
  const bits = gunzipSync(Buffer.from(encodedList.slice(1), 'base64url'));
  expect(bits.length).toBe(16384);
  return (bits[index >> 3]! >> (7 - (index & 7))) & 1;
}

describe('the issuer published by the platform', () => {
  it('serves a did:web document (the Ed25519 key as a JWK and as a Multikey) and a JWKS with the same key', async () => {
    const did = await app().get('/.well-known/did.json').expect(200);
    expect(did.headers['content-type']).toMatch(/^application\/did\+json/);
    const document = JSON.parse(did.text);
    expect(document.id).toBe(DID);
    expect(document['@context']).toContain('https://w3id.org/security/multikey/v1');
    expect(document.verificationMethod).toHaveLength(2);
    const [method, multikey] = document.verificationMethod;
    expect(method).toMatchObject({ type: 'JsonWebKey2020', controller: DID, publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: expect.any(String) } });
    expect(method.id.startsWith(`${DID}#`)).toBe(true);
    expect(method.publicKeyJwk.d).toBeUndefined();
    // The Multikey: `z` + base58btc of the ed25519-pub multicodec (0xed 0x01) and the same 32 bytes as the JWK's `x`.
    expect(multikey).toEqual({ id: `${DID}#${multikey.publicKeyMultibase}`, type: 'Multikey', controller: DID, publicKeyMultibase: expect.stringMatching(/^z6Mk/) });
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    const decoded = [...multikey.publicKeyMultibase.slice(1)].reduce((n: bigint, c: string) => n * 58n + BigInt(alphabet.indexOf(c)), 0n).toString(16);
    expect(decoded).toBe(`ed01${Buffer.from(method.publicKeyJwk.x, 'base64url').toString('hex')}`);
    expect(document.assertionMethod).toEqual([method.id, multikey.id]);
    const jwks = JSON.parse((await app().get('/.well-known/jwks.json').expect(200)).text);
    expect(jwks.keys).toEqual([{ ...method.publicKeyJwk, kid: method.id, alg: 'EdDSA', use: 'sig' }]);
  });
});

describe('a certificate as an Open Badges 3.0 verifiable credential', () => {
  it('verifies offline with the published key, has the Open Badges shape, and its status bit flips when revoked', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Zainab Bello', program_title: 'Control Systems', expires_on: '2099-12-31' });
    const jwt = await downloadCredentialJwt(certificate.verification_code);
    // Fetch the issuer's key once: the organization's own DID (did:web:<host>:issuers:<org> is /issuers/<org>/did.json)...
    const orgDid = `${DID}:issuers:${org.org}`;
    const didDocument = JSON.parse((await app().get(`/issuers/${org.org}/did.json`).expect(200)).text);
    expect(didDocument.id).toBe(orgDid);
    const publicJwk = didDocument.verificationMethod[0].publicKeyJwk as JWK;
    const keyId = didDocument.verificationMethod[0].id as string;
    const platformDocument = JSON.parse((await app().get('/.well-known/did.json').expect(200)).text);
    const platformKey = await importJWK(platformDocument.verificationMethod[0].publicKeyJwk as JWK, 'EdDSA');
    const issuedAt = (certificate as unknown as { created_at: string }).created_at;

    // ...then verify with jose alone: no call to the service from here on.
    const key = await importJWK(publicJwk, 'EdDSA');
    const { payload, protectedHeader } = await jwtVerify(jwt, key, { issuer: orgDid, typ: 'vc+jwt', algorithms: ['EdDSA'] });
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: keyId, typ: 'vc+jwt', cty: 'vc' });
    const page = `${PUBLIC_BASE_URL}/credentials/${certificate.verification_code}`;
    expect(payload).toMatchObject({
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
        'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
      ],
      id: page,
      jti: page,
      type: expect.arrayContaining(['VerifiableCredential', 'OpenBadgeCredential']),
      issuer: { id: orgDid, type: ['Profile'], name: 'Kano Robotics Institute' },
      // Valid from the moment the certificate was issued (to the second); the issue date is the award date.
      validFrom: `${issuedAt.slice(0, 19)}Z`,
      awardedDate: '2026-05-01T00:00:00Z',
      validUntil: '2099-12-31T23:59:59Z',
      iat: Math.floor(Date.parse(issuedAt) / 1000),
      credentialSchema: [{ id: 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json', type: '1EdTechJsonSchemaValidator2019' }],
      credentialSubject: {
        type: ['AchievementSubject'],
        identifier: [{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: 'Zainab Bello' }],
        achievement: { type: ['Achievement'], name: 'Control Systems', criteria: { narrative: expect.any(String) }, description: expect.any(String) },
      },
      credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation', statusListIndex: expect.stringMatching(/^\d+$/) },
    });
    // No internal id (the organization's id is public: it is in its DID).
    expect(JSON.stringify(payload).replaceAll(orgDid, '')).not.toMatch(/cert_[0-9a-z]{20}|org_[0-9a-f]{10}/);
    // One changed byte in the signed content: the same offline check refuses it.
    const [head, body, signature] = jwt.split('.');
    const changed = `${head}.${body!.slice(0, 10)}${body![10] === 'A' ? 'B' : 'A'}${body!.slice(11)}.${signature}`;
    await expect(compactVerify(changed, key)).rejects.toThrow();

    const status = payload.credentialStatus as { statusListCredential: string; statusListIndex: string; id: string };
    expect(status.statusListCredential).toBe(`${PUBLIC_BASE_URL}/credentials/status/1`);
    expect(status.id).toBe(`${status.statusListCredential}#${status.statusListIndex}`);
    const index = Number(status.statusListIndex);
    const statusList = async () => {
      const res = await app().get('/credentials/status/1').set('Accept', 'application/vc+jwt').expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/vc\+jwt/);
      // The status lists stay the platform's.
      const verified = await jwtVerify(res.text, platformKey, { issuer: DID, typ: 'vc+jwt' });
      expect(verified.payload).toMatchObject({
        id: status.statusListCredential,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: DID,
        credentialSubject: { type: 'BitstringStatusList', statusPurpose: 'revocation' },
      });
      return (verified.payload.credentialSubject as { encodedList: string }).encodedList;
    };
    expect(bitAt(await statusList(), index)).toBe(0);
    await revoke(certificate.id);
    expect(bitAt(await statusList(), index)).toBe(1);
    // The credential itself is unchanged by revocation: the same bytes, still a valid signature.
    expect(await downloadCredentialJwt(certificate.verification_code)).toBe(jwt);
  });

  it('is served at the page address by content negotiation, as the JWT or in JSON-LD with a proof', async () => {
    const certificate = await issueCertificate(ctx, org);
    const asJwt = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+jwt').expect(200);
    expect(asJwt.headers['content-type']).toMatch(/^application\/vc\+jwt/);
    expect(asJwt.headers.vary).toMatch(/Accept/);
    expect(decodeProtectedHeader(asJwt.text).typ).toBe('vc+jwt');
    const asLd = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+ld+json').expect(200);
    // The same credential, secured the other way.
    const { proof, ...credential } = JSON.parse(asLd.text);
    expect(proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });
    const { iss, jti, iat, exp, ...payload } = decodeJwt(asJwt.text);
    expect([iss, jti, typeof iat]).toEqual([`${DID}:issuers:${org.org}`, credential.id, 'number']);
    expect(exp === undefined).toBe(credential.validUntil === undefined);
    expect(payload).toEqual(credential);
  });

  it('an unknown code or status list is a 404 problem', async () => {
    for (const path of ['/credentials/ABCDEF-GHJKMN-PQRSTU/credential.json', '/credentials/status/99999', '/credentials/status/0', '/credentials/status/x']) {
      const res = await app().get(path).expect(404);
      expect(res.body.code).toBe('not_found');
    }
    const res = await app().get('/credentials/ABCDEF-GHJKMN-PQRSTU').set('Accept', 'application/vc+jwt').expect(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('POST /credentials/verify', () => {
  const verify = (body: unknown) => app().post('/credentials/verify').send(body as object).expect(200);

  it('valid, then revoked; a changed byte is tampered', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Musa Danjuma' });
    const jwt = await downloadCredentialJwt(certificate.verification_code);
    const valid = await verify({ credential: jwt });
    expectToMatchRouteTable(valid);
    expect(valid.body).toMatchObject({ status: 'valid', valid: true, reason: expect.any(String), credential: { recipient_name: 'Musa Danjuma', issuer_name: 'Kano Robotics Institute' } });
    const [head, body, signature] = jwt.split('.');
    const changed = `${head}.${body!.slice(0, 40)}${body![40] === 'x' ? 'y' : 'x'}${body!.slice(41)}.${signature}`;
    const tampered = await verify({ credential: changed });
    expectToMatchRouteTable(tampered);
    expect(tampered.body).toMatchObject({ status: 'tampered', valid: false, credential: null });
    expect(tampered.body.reason).toMatch(/changed/);
    await revoke(certificate.id);
    const revoked = await verify({ credential: jwt });
    expect(revoked.body).toMatchObject({ status: 'revoked', valid: false, reason: expect.stringMatching(/revoked/) });
  });

  it('takes the downloaded document as it is, the bare or enveloped JWT, and a code', async () => {
    const certificate = await issueCertificate(ctx, org);
    const file = (await app().get(`/credentials/${certificate.verification_code}/credential.json`).expect(200)).text;
    expect((await verify({ credential: file })).body.status).toBe('valid');
    expect((await verify({ credential: JSON.parse(file) })).body.status).toBe('valid');
    const asLd = await app().post('/credentials/verify').set('Content-Type', 'application/vc+ld+json').send(file).expect(200);
    expectToMatchRouteTable(asLd);
    expect(asLd.body.status).toBe('valid');
    const jwt = await downloadCredentialJwt(certificate.verification_code);
    expect((await verify({ credential: envelope(jwt) })).body.status).toBe('valid');
    const enveloped = await app().post('/credentials/verify').set('Content-Type', 'application/vc+ld+json').send(JSON.stringify(envelope(jwt))).expect(200);
    expect(enveloped.body.status).toBe('valid');
    const asJwt = await app().post('/credentials/verify').set('Content-Type', 'application/vc+jwt').send(jwt).expect(200);
    expect(asJwt.body.status).toBe('valid');
    expect((await verify({ code: certificate.verification_code.toLowerCase() })).body).toMatchObject({ status: 'valid', valid: true });
    const unknown = await verify({ code: 'ABCDEF-GHJKMN-PQRSTU' });
    expectToMatchRouteTable(unknown);
    expect(unknown.body).toMatchObject({ status: 'unknown', valid: false, credential: null });
  });

  it('an expired certificate is expired, both as a credential and as a code', async () => {
    const certificate = await issueCertificate(ctx, org, { issue_date: '2020-01-01', expires_on: '2021-01-01' });
    const jwt = await downloadCredentialJwt(certificate.verification_code);
    expect((await verify({ credential: jwt })).body).toMatchObject({ status: 'expired', valid: false, reason: expect.stringMatching(/2021-01-01/) });
    expect((await verify({ code: certificate.verification_code })).body).toMatchObject({ status: 'expired', valid: false });
  });

  it('something that is no credential of ours is tampered; a body naming neither is a 422', async () => {
    const foreign = generateKeyPairSync('ed25519').privateKey;
    const { CompactSign } = await import('jose');
    const forged = await new CompactSign(Buffer.from('{"id":"x"}')).setProtectedHeader({ alg: 'EdDSA', kid: 'did:web:elsewhere#1' }).sign(foreign);
    expect((await verify({ credential: forged })).body).toMatchObject({ status: 'tampered', reason: expect.stringMatching(/key/) });
    expect((await verify({ credential: 'hello' })).body.status).toBe('tampered');
    expect((await verify({ credential: { '@context': [], id: 'urn:x' } })).body.status).toBe('tampered');
    for (const body of [{}, { credential: 'a', code: 'b' }, { other: 1 }]) {
      const res = await app().post('/credentials/verify').send(body).expect(422);
      expectToMatchRouteTable(res);
    }
    await app().post('/credentials/verify').set('Content-Type', 'text/plain').send('x').expect(415);
  });
});

describe('CREDENTIAL_SIGNING_KEY', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: randomBytes(32).toString('hex'), PUBLIC_BASE_URL: 'https://certs.example.com', DASHBOARD_ORIGINS: 'https://dash.example.com' };

  it('is required in production, must be an Ed25519 private key, and is never echoed', () => {
    expect(() => parseConfig(certificateConfigSchema, production)).toThrow(/CREDENTIAL_SIGNING_KEY: is required when NODE_ENV=production/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => parseConfig(certificateConfigSchema, { ...production, CREDENTIAL_SIGNING_KEY: rsa })).toThrow(/must be an Ed25519 key \(EdDSA\) \(got a hidden value\)/);
    expect(() => parseConfig(certificateConfigSchema, { ...production, CREDENTIAL_SIGNING_KEY: 'nonsense' })).toThrow(/^(?!.*nonsense).*PKCS#8 PEM or a private JWK/);
  });

  it('signs the status lists, and credentials signed before organizations had keys, with the configured key, given as PEM or as a JWK', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    for (const configured of [privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), JSON.stringify(privateKey.export({ format: 'jwk' }))]) {
      const other = createTestContext({ PUBLIC_BASE_URL, CREDENTIAL_SIGNING_KEY: configured });
      try {
        const certificate = await issueCertificate(other, newOrg(other));
        // A certificate stored before issuers had keys of their own (the migration marks those 'platform').
        await other.db('certificates').where({ id: certificate.id }).update({ issuer_key_id: 'platform' });
        const jwt = (await request(other.app).get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+jwt').expect(200)).text;
        await expect(compactVerify(jwt, publicKey)).resolves.toBeDefined();
        const list = (await request(other.app).get('/credentials/status/1').set('Accept', 'application/vc+jwt').expect(200)).text;
        await expect(compactVerify(list, publicKey)).resolves.toBeDefined();
        const jwks = JSON.parse((await request(other.app).get('/.well-known/jwks.json').expect(200)).text);
        expect(jwks.keys[0].x).toBe((publicKey.export({ format: 'jwk' }) as { x: string }).x);
      } finally {
        await other.close();
      }
    }
  });
});
