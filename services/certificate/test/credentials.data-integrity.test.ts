import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
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
 * VerifierPlus run. Its package, @digitalcredentials/verifier-core (1.0.0-beta.11, the newest on npm), takes no
 * document loader: `verifyCredential({ credential, knownDIDRegistries })` uses the one it builds at import
 * (`securityLoader({ fetchRemoteContexts: true })`), which resolves the did:web over HTTPS and fetches the status list
 * credential (and any context it does not bundle; it bundles all of ours) from their URLs, and it fetches the
 * credential's `credentialSchema` (purl.imsglobal.org) with the global `fetch`, and every issuer registry named in
 * `knownDIDRegistries` (none here). So it runs as it is, offline, in a Node process of its own (it is ES modules
 * throughout, which jest's CommonJS runtime does not load: test/helpers/dcc-verifier-core.mjs), its `fetch` pointed at
 * loopback servers: the app for the platform's addresses, a server with the shipped 1EdTech schema for
 * purl.imsglobal.org; any other address is refused.
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

/**
 * did:web resolution, answered by the app: `did:web:host%3Aport` is `https://host:port/.well-known/did.json`, and
 * `did:web:host%3Aport:issuers:org` (an organization's own DID) is `https://host:port/issuers/org/did.json`.
 */
async function resolveDidWeb(did: string) {
  const [host, ...path] = did.slice('did:web:'.length).split(':');
  expect(`https://${decodeURIComponent(host!)}`).toBe(PUBLIC_BASE_URL);
  const res = await app().get(path.length ? `/${path.map(decodeURIComponent).join('/')}/did.json` : '/.well-known/did.json').expect(200);
  return JSON.parse(res.text) as { id: string; '@context': string[]; verificationMethod: Array<{ id: string }> };
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

const SCHEMA_FILE = 'ob_v3p0_achievementcredential_schema.json';
const SCHEMA_URL = `https://purl.imsglobal.org/spec/ob/v3p0/schema/json/${SCHEMA_FILE}`;

/** A server listening on a loopback port, its origin, and how to stop it. */
async function listening(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface VerifierCoreAnswer {
  result: {
    errors?: Array<{ name: string; message: string }>;
    log?: Array<{ id: string; valid: boolean }>;
    additionalInformation?: Array<{ id: string; results: Array<{ schema: string; result: { valid: boolean; errors?: Array<{ instancePath: string; message: string }> } }> }>;
  };
  fetched: Array<{ url: string; answered: boolean }>;
}

/** @digitalcredentials/verifier-core's verdict on `credential` (test/helpers/dcc-verifier-core.mjs), its fetches sent by `urlMap`. */
function verifierCore(credential: object, urlMap: Record<string, string>): Promise<VerifierCoreAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'helpers', 'dcc-verifier-core.mjs')], {
      env: { ...process.env, NODE_OPTIONS: '', DCC_URL_MAP: JSON.stringify(urlMap) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as VerifierCoreAnswer) : reject(new Error(`verifier-core exited with ${code}: ${err}`))));
    child.stdin.end(JSON.stringify(credential));
  });
}

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
    // Signed by the organization's own DID, under the platform's host.
    const orgDid = `${DID}:issuers:${org.org}`;
    expect(credential).toMatchObject({
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
        'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
      ],
      id: `${PUBLIC_BASE_URL}/credentials/${certificate.verification_code}`,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: orgDid, name: 'Sahel Nursing College' },
      credentialSubject: { identifier: [{ identityHash: 'Aisha Garba' }], achievement: { name: 'Midwifery Practice' } },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod', verificationMethod: expect.stringMatching(new RegExp(`^${orgDid}#z6Mk`)) },
    });
    // The proof was made when the certificate was issued, the moment the credential is valid from.
    expect(credential.proof.created).toBe(credential.validFrom);
    expect(credential.validFrom).toBe(`${(certificate as unknown as { created_at: string }).created_at.slice(0, 19)}Z`);
    // The proof's key is the DID document's Multikey, one of its assertion methods.
    const did = await resolveDidWeb(orgDid);
    expect(did.id).toBe(orgDid);
    expect(did.verificationMethod).toContainEqual({ id: credential.proof.verificationMethod, type: 'Multikey', controller: orgDid, publicKeyMultibase: credential.proof.verificationMethod.split('#')[1] });

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

  it('the DCC verifier itself (verifier-core, in its own process, offline) says valid, then revoked', async () => {
    const certificate = await issueCertificate(ctx, org, { recipient_name: 'Binta Musa', program_title: 'Public Health Nursing' });
    const credential = await downloadCredential(certificate.verification_code);
    const platform = await listening(createServer(ctx.app));
    const purl = await listening(
      createServer((req, res) => {
        if (req.url !== `/${SCHEMA_FILE}`) return void res.writeHead(404).end();
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(readFileSync(path.join(__dirname, 'fixtures', SCHEMA_FILE)));
      }),
    );
    try {
      const urlMap = { [`${PUBLIC_BASE_URL}/`]: `${platform.origin}/`, [SCHEMA_URL.replace(SCHEMA_FILE, '')]: `${purl.origin}/` };
      const valid = await verifierCore(credential, urlMap);
      expect(valid.result.errors).toBeUndefined();
      expect(valid.result.log).toEqual(
        expect.arrayContaining([{ id: 'valid_signature', valid: true }, { id: 'revocation_status', valid: true }, { id: 'expiration', valid: true }]),
      );
      // What it fetched: the organization's did:web document (the credential's signer), the platform's (the status list's
      // signer) and the status list from the platform, the schema from 1EdTech; nothing else.
      expect(valid.fetched.every(({ answered }) => answered)).toBe(true);
      const organizationDid = `${PUBLIC_BASE_URL}/issuers/${String(credential.issuer.id).split(':').at(-1)}/did.json`;
      expect(new Set(valid.fetched.map(({ url }) => url))).toEqual(new Set([organizationDid, `${PUBLIC_BASE_URL}/.well-known/did.json`, credential.credentialStatus.statusListCredential, SCHEMA_URL]));
      // Its schema step validates the credential with its proof: 1EdTech's schema wants `proof` as an array (see
      // credentials.open-badges.test.ts), the one complaint it has.
      const schemaCheck = valid.result.additionalInformation?.find(({ id }) => id === 'schema_check');
      expect(schemaCheck?.results).toEqual([expect.objectContaining({ schema: SCHEMA_URL, result: expect.objectContaining({ valid: false }) })]);
      expect(schemaCheck?.results[0]?.result.errors?.map(({ instancePath, message }) => `${instancePath}: ${message}`)).toEqual(['/proof: must be array']);

      await app().post(`/admin/v1/certificates/${certificate.id}/revoke`).set('Authorization', org.admin()).expect(200);
      const revoked = await verifierCore(credential, urlMap);
      expect(revoked.result.log).toEqual(expect.arrayContaining([{ id: 'valid_signature', valid: true }, { id: 'revocation_status', valid: false }]));

      // A copy naming another achievement: its signature fails, and it says so before anything else.
      const changed = structuredClone(credential);
      changed.credentialSubject.achievement.name = 'Surgery';
      const tampered = await verifierCore(changed, urlMap);
      expect(tampered.result.errors).toEqual([expect.objectContaining({ name: 'invalid_signature' })]);
    } finally {
      await Promise.all([platform.close(), purl.close()]);
    }
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
