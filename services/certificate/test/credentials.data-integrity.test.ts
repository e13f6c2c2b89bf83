import { gunzipSync } from 'node:zlib';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { DataIntegrityProof as DccDataIntegrityProof } from '@digitalcredentials/data-integrity';
import { cryptosuite as dccCryptosuite } from '@digitalcredentials/eddsa-rdfc-2022-cryptosuite';
import * as dccVc from '@digitalcredentials/vc';
import { checkStatus } from '@digitalcredentials/vc-bitstring-status-list';
import jsigs from 'jsonld-signatures';
import request from 'supertest';
import { BUNDLED_CONTEXTS } from '../src/features/credentials/data-integrity';
import { createTestContext, type TestContext } from './helpers/context';
import { expectToMatchRouteTable } from './helpers/openapi';
import { issueCertificate, newOrg, type TestOrg } from './factories/admin';

/**
 * The JSON-LD form of a credential carries an embedded Data Integrity proof (`eddsa-rdfc-2022`), so verifiers that
 * check embedded proofs (Data Integrity wallets) accept it. A verifier is built here from Digital Bazaar's libraries
 * (jsonld-signatures, the Data Integrity suite, the eddsa-rdfc-2022 cryptosuite): it reads the JSON-LD contexts from
 * the packages the service ships and resolves the issuer's did:web from the app, and from nothing else.
 *
 * The field's verifier is checked too: the Digital Credentials Consortium's (DCC) verifier, which its wallet and
 * VerifierPlus run. Its package, @digitalcredentials/verifier-core (1.0.0-beta.11, the newest on npm), cannot run
 * offline: `verifyCredential({ credential, knownDIDRegistries })` takes no document loader. It builds its own once, at
 * import (`securityLoader({ fetchRemoteContexts: true })`), which resolves a did:web over HTTPS and fetches the status
 * list credential and any context it does not bundle from their URLs; it fetches the credential's `credentialSchema`
 * (purl.imsglobal.org) with the global `fetch`, and every issuer registry named in `knownDIDRegistries`. So the test
 * runs what verifier-core is made of, the way it runs it: @digitalcredentials/vc's `verifyCredential` with the
 * `eddsa-rdfc-2022` Data Integrity suite (@digitalcredentials/data-integrity and -eddsa-rdfc-2022-cryptosuite) and
 * @digitalcredentials/vc-bitstring-status-list's `checkStatus`, `verifyMatchingIssuers: false` as verifier-core passes
 * it, given a document loader over the bundled contexts and the app (the did:web document and the status list,
 * answered by the app on a loopback port). Its schema step is credentials.open-badges.test.ts's (ajv against 1EdTech's
 * schema, shipped in test/fixtures); its registry step only says whether the issuer is listed somewhere.
 */
const PUBLIC_BASE_URL = 'https://certificates.example.test:8443';
const DID = 'did:web:certificates.example.test%3A8443';
let ctx: TestContext;
let org: TestOrg;
const fetched: string[] = [];

beforeAll(() => {
  ctx = createTestContext({ PUBLIC_BASE_URL });
  org = newOrg(ctx, { orgName: 'Sahel Nursing College' });
});
afterAll(() => ctx.close());

const app = () => request(ctx.app);

/** did:web resolution (`did:web:host%3Aport` is `https://host:port/.well-known/did.json`), answered by the app. */
async function resolveDidWeb(did: string) {
  expect(`https://${decodeURIComponent(did.slice('did:web:'.length))}`).toBe(PUBLIC_BASE_URL);
  const res = await app().get('/.well-known/did.json').expect(200);
  return JSON.parse(res.text) as { '@context': string[]; verificationMethod: Array<{ id: string }> };
}

async function documentLoader(url: string) {
  fetched.push(url);
  const context = BUNDLED_CONTEXTS.get(url);
  if (context) return { contextUrl: null, documentUrl: url, document: context };
  if (url.startsWith('did:web:')) {
    const document = await resolveDidWeb(url.split('#')[0]!);
    if (!url.includes('#')) return { contextUrl: null, documentUrl: url, document };
    const method = document.verificationMethod.find((candidate) => candidate.id === url);
    if (method) return { contextUrl: null, documentUrl: url, document: { '@context': document['@context'], ...method } };
  }
  throw new Error(`no network in this test: ${url}`);
}

/** The DCC verifier's loader: the same, and the platform's own documents (the status lists) from the app. */
async function dccDocumentLoader(url: string) {
  if (!url.startsWith(`${PUBLIC_BASE_URL}/`)) return documentLoader(url);
  fetched.push(url);
  const res = await app().get(url.slice(PUBLIC_BASE_URL.length)).set('Accept', 'application/vc+ld+json').expect(200);
  return { contextUrl: null, documentUrl: url, document: JSON.parse(res.text) as unknown };
}

/** As @digitalcredentials/verifier-core verifies a credential (its signature, then its status), without its fetching. */
const verifyAsDcc = (credential: object) =>
  dccVc.verifyCredential({
    credential: structuredClone(credential),
    suite: [new DccDataIntegrityProof({ cryptosuite: dccCryptosuite })],
    documentLoader: dccDocumentLoader,
    checkStatus,
    verifyMatchingIssuers: false,
  });

const verifyProof = (document: object) =>
  jsigs.verify(structuredClone(document), { suite: new DataIntegrityProof({ cryptosuite }), purpose: new jsigs.purposes.AssertionProofPurpose(), documentLoader });

interface Credential {
  '@context': string[];
  id: string;
  validFrom: string;
  type: string[];
  issuer: { id: string; name: string };
  credentialSubject: { identifier: Array<{ identityHash: string }>; achievement: { name: string } };
  credentialStatus: { statusListCredential: string; statusListIndex: string };
  proof: { type: string; cryptosuite: string; verificationMethod: string; proofPurpose: string; created: string; proofValue: string };
}

async function downloadCredential(code: string): Promise<Credential> {
  const res = await app().get(`/credentials/${code}/credential.json`).expect(200);
  expectToMatchRouteTable(res);
  expect(res.headers['content-type']).toMatch(/^application\/vc\+ld\+json/);
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="credential-[A-Z0-9-]+\.json"$/);
  return JSON.parse(res.text) as Credential;
}

/** The credential's revocation bit, read from its status list credential, whose own proof is checked first. */
async function revocationBit(credential: Credential): Promise<number> {
  const url = credential.credentialStatus.statusListCredential;
  expect(url.startsWith(`${PUBLIC_BASE_URL}/`)).toBe(true);
  const res = await app().get(url.slice(PUBLIC_BASE_URL.length)).set('Accept', 'application/vc+ld+json').expect(200);
  expectToMatchRouteTable(res);
  expect(res.headers['content-type']).toMatch(/^application\/vc\+ld\+json/);
  const list = JSON.parse(res.text) as { type: string[]; issuer: string; credentialSubject: { encodedList: string }; proof: { cryptosuite: string } };
  expect(list).toMatchObject({ id: url, type: ['VerifiableCredential', 'BitstringStatusListCredential'], issuer: DID, proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' } });
  expect((await verifyProof(list)).verified).toBe(true);
  const bits = gunzipSync(Buffer.from(list.credentialSubject.encodedList.slice(1), 'base64url'));
  const index = Number(credential.credentialStatus.statusListIndex);
  return (bits[index >> 3]! >> (7 - (index & 7))) & 1;
}

describe('credential.json: the Open Badges credential with an embedded Data Integrity proof', () => {
  it('verifies with the Data Integrity libraries, reports revocation through its status list, and a changed copy fails', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Aisha Garba', program_title: 'Midwifery Practice', expires_on: '2099-12-31' });
    const credential = await downloadCredential(certificate.verification_code);
    expect(credential).toMatchObject({
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
        'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
      ],
      id: `${PUBLIC_BASE_URL}/credentials/${certificate.verification_code}`,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: DID, name: 'Sahel Nursing College' },
      credentialSubject: { identifier: [{ identityHash: 'Aisha Garba' }], achievement: { name: 'Midwifery Practice' } },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', verificationMethod: expect.stringMatching(new RegExp(`^${DID}#z6Mk`)) },
    });
    // The proof was made when the certificate was issued, the moment the credential is valid from.
    expect(credential.proof.created).toBe(credential.validFrom);
    expect(credential.validFrom).toBe(`${(certificate as unknown as { created_at: string }).created_at.slice(0, 19)}Z`);
    // The proof's key is the DID document's Multikey, one of its assertion methods.
    const did = await resolveDidWeb(DID);
    expect(did.verificationMethod).toContainEqual({ id: credential.proof.verificationMethod, type: 'Multikey', controller: DID, publicKeyMultibase: credential.proof.verificationMethod.split('#')[1] });

    fetched.length = 0;
    const result = await verifyProof(credential);
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
    expect(fetched.every((url) => BUNDLED_CONTEXTS.has(url) || url.startsWith(DID))).toBe(true);
    expect(await revocationBit(credential)).toBe(0);
    expect((await app().post('/credentials/verify').send({ credential }).expect(200)).body).toMatchObject({ status: 'valid', credential: { recipient_name: 'Aisha Garba' } });

    // A copy naming someone else: the proof no longer matches, for the libraries and for the platform's verifier.
    const changed = structuredClone(credential);
    changed.credentialSubject.identifier[0]!.identityHash = 'Someone Else';
    expect((await verifyProof(changed)).verified).toBe(false);
    const tampered = await app().post('/credentials/verify').set('Content-Type', 'application/vc+ld+json').send(JSON.stringify(changed)).expect(200);
    expectToMatchRouteTable(tampered);
    expect(tampered.body).toMatchObject({ status: 'tampered', valid: false, credential: null });

    await app().post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    // Revoking changes the status list, not the credential: the same bytes, the same valid proof, its bit now set.
    expect(await downloadCredential(certificate.verification_code)).toEqual(credential);
    expect((await verifyProof(credential)).verified).toBe(true);
    expect(await revocationBit(credential)).toBe(1);
    const revoked = await app().post('/credentials/verify').set('Content-Type', 'application/vc+ld+json').send(JSON.stringify(credential)).expect(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', valid: false });
  });

  it("the field's verifier (the DCC verifier's libraries) says valid, then revoked once the certificate is revoked", async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Hauwa Sani', program_title: 'Community Health' });
    const credential = await downloadCredential(certificate.verification_code);
    fetched.length = 0;
    const valid = await verifyAsDcc(credential);
    expect(valid.error).toBeUndefined();
    expect(valid.verified).toBe(true);
    expect(valid.log).toEqual(expect.arrayContaining([{ id: 'valid_signature', valid: true }, { id: 'revocation_status', valid: true }]));
    // It read the status list credential (and checked that list's own proof) from the platform, and nothing from elsewhere.
    expect(fetched).toContain(credential.credentialStatus.statusListCredential);
    expect(fetched.every((url) => BUNDLED_CONTEXTS.has(url) || url.startsWith(DID) || url.startsWith(`${PUBLIC_BASE_URL}/credentials/status/`))).toBe(true);

    await app().post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
    const revoked = await verifyAsDcc(credential);
    // The signature still holds; the status list now says revoked, so the credential no longer verifies.
    expect(revoked.verified).toBe(false);
    expect(revoked.log).toEqual(expect.arrayContaining([{ id: 'valid_signature', valid: true }, { id: 'revocation_status', valid: false }]));
    expect(revoked.statusResult).toMatchObject({ verified: false, results: [{ verified: false, credentialStatus: { statusPurpose: 'revocation' } }] });

    // A changed copy fails at the signature, before any status is looked at.
    const changed = structuredClone(credential);
    changed.credentialSubject.achievement.name = 'Surgery';
    const tampered = await verifyAsDcc(changed);
    expect(tampered.verified).toBe(false);
    expect(tampered.statusResult).toBeUndefined();
  });

  it('is also the answer to Accept: application/vc+ld+json at the page address', async () => {
    const certificate = await issueCertificate(ctx, org);
    const res = await app().get(`/credentials/${certificate.verification_code}`).set('Accept', 'application/vc+ld+json').expect(200);
    expectToMatchRouteTable(res);
    expect(res.headers['content-type']).toMatch(/^application\/vc\+ld\+json/);
    const credential = await downloadCredential(certificate.verification_code);
    expect(credential.proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });
    expect(JSON.parse(res.text)).toEqual(credential);
  });

  it('a credential naming a context the platform does not ship is not verified (nothing is fetched)', async () => {
    const certificate = await issueCertificate(ctx, org);
    const credential = await downloadCredential(certificate.verification_code);
    const foreign = { ...credential, '@context': [...credential['@context'], 'https://contexts.example.test/extra.json'] };
    const res = await app().post('/credentials/verify').send({ credential: foreign }).expect(200);
    expect(res.body).toMatchObject({ status: 'tampered', valid: false });
  });
});
