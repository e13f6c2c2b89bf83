import { createPublicKey, type KeyObject } from 'node:crypto';
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { NotFoundError } from '@platform/service-kit/errors';
import { certificateStatus, TEST_CERTIFICATE_REASON } from '../certificates';
import { normalizeVerificationCode } from '../certificates';
import { credentialPageUrl, issuerNameOf } from '../documents';
import { DATA_INTEGRITY_CRYPTOSUITE, documentLoader, signWithDataIntegrity, verifyDataIntegrity } from './data-integrity';
import { didDocument, issuerIdentity, jwks, type IssuerIdentity } from './issuer-identity';
import { openBadgeCredential } from './open-badge';
import type { CredentialsRepository, PublicCredentialRow } from './credentials.repository';
import type { SigningKey } from './signing-key';
import { encodeStatusList, firstPositionOf, STATUS_LIST_SIZE, statusListUrl } from './status-list';

export const VC_JWT = 'application/vc+jwt';
export const VC_LD_JSON = 'application/vc+ld+json';
/** A VC 2.0 `EnvelopedVerifiableCredential` holds the JWT as a data: URL in its `id`; verification still takes it. */
const ENVELOPE_PREFIX = `data:${VC_JWT},`;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export type VerificationStatus = 'valid' | 'revoked' | 'expired' | 'test' | 'tampered' | 'unknown';

export interface VerificationResult {
  status: VerificationStatus;
  valid: boolean;
  reason: string;
  /** What the verified credential says (null when nothing could be trusted). */
  credential: null | {
    id: string;
    recipient_name: string | null;
    achievement: string | null;
    issuer_name: string | null;
    valid_from: string | null;
    valid_until: string | null;
  };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The Open Badges 3.0 credential of a stored certificate, as this platform (its DID, its pages) issues it. */
function credentialOf(row: PublicCredentialRow, publicBaseUrl: string, issuerDid: string) {
  return openBadgeCredential({
    pageUrl: credentialPageUrl(publicBaseUrl, row.verification_code),
    issuerDid,
    organizationName: issuerNameOf(row.template_issuer_name, row.organization_name), // the issuer the document names
    recipientName: row.recipient_name,
    programTitle: row.program_title,
    issueDate: row.issue_date,
    issuedAt: row.created_at,
    expiresOn: row.expires_on,
    statusListPosition: row.status_list_position,
    publicBaseUrl,
  });
}

const tampered = (reason: string): VerificationResult => ({ status: 'tampered', valid: false, reason, credential: null });

/** A credential in its JSON-LD form with an embedded proof (an object or its JSON text), or null. */
function dataIntegrityCredentialIn(input: unknown): Record<string, unknown> | null {
  if (typeof input === 'string') {
    const text = input.trim();
    if (!text.startsWith('{')) return null;
    try {
      return dataIntegrityCredentialIn(JSON.parse(text) as unknown);
    } catch {
      return null;
    }
  }
  if (input && typeof input === 'object' && !Array.isArray(input) && 'proof' in input) return input as Record<string, unknown>;
  return null;
}

/** The compact JWS inside whatever was handed in: the JWT itself, an enveloped credential, or their JSON text. */
function jwtIn(input: unknown): string | null {
  if (typeof input === 'string') {
    const text = input.trim();
    if (COMPACT_JWS.test(text)) return text;
    if (text.startsWith(ENVELOPE_PREFIX)) return jwtIn(text.slice(ENVELOPE_PREFIX.length));
    if (!text.startsWith('{')) return null;
    try {
      return jwtIn(JSON.parse(text) as unknown);
    } catch {
      return null;
    }
  }
  if (input && typeof input === 'object' && typeof (input as { id?: unknown }).id === 'string') return jwtIn((input as { id: string }).id);
  return null;
}

/** A document loader that knows the bundled JSON-LD contexts and the platform's own DID, and nothing else. */
function ownDocumentLoader(identity: IssuerIdentity) {
  const document = didDocument(identity);
  return documentLoader(async (did) => (did === identity.did ? document : undefined));
}

/**
 * Signs every certificate as an Open Badges 3.0 credential, secured two ways with the same Ed25519 key: with JOSE
 * (VC-JOSE-COSE: a compact JWS, `typ` `vc+jwt`, EdDSA) and, in its JSON-LD form (`application/vc+ld+json`), with an
 * embedded Data Integrity proof (`eddsa-rdfc-2022`). Publishes the issuer's key and the revocation status lists (secured
 * the same two ways), and verifies credentials handed back to it. Credentials are built on request from the stored
 * certificate: the same certificate always yields the same bytes (Ed25519 signatures are deterministic, the proof is
 * dated when the certificate was issued), and revoking changes only its status list bit.
 */
export function createVerifiableCredentialsService(repository: CredentialsRepository, key: SigningKey, publicBaseUrl: string) {
  const identity = issuerIdentity(publicBaseUrl, key);
  const header = { alg: 'EdDSA', kid: identity.keyId, typ: 'vc+jwt', cty: 'vc' };
  const loader = ownDocumentLoader(identity);
  const proofKey = { id: identity.multikeyId, controller: identity.did, privateKey: key.privateKey };

  async function sign(payload: Record<string, unknown>): Promise<string> {
    return new CompactSign(Buffer.from(JSON.stringify(payload))).setProtectedHeader(header).sign(key.privateKey);
  }

  /** Status list `list` as a BitstringStatusListCredential (unsigned), or not found when no certificate is on it. */
  async function statusListCredential(list: number, now: Date) {
    const from = firstPositionOf(list);
    if (!(await repository.anyPositionIn(from, from + STATUS_LIST_SIZE))) throw new NotFoundError('Status list not found');
    const revoked = await repository.revokedPositions(from, from + STATUS_LIST_SIZE);
    const url = statusListUrl(publicBaseUrl, list);
    return {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id: url,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: identity.did,
      validFrom: now.toISOString(),
      credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: encodeStatusList(revoked.map((position) => position - from)) },
    };
  }

  async function rowFor(input: string) {
    const code = normalizeVerificationCode(input);
    const row = code ? await repository.byVerificationCode(code) : undefined;
    if (!row) throw new NotFoundError('Certificate not found');
    return row;
  }

  /** A certificate the platform signs for: a test certificate has no signed form in either mechanism (404). */
  async function signableRowFor(input: string) {
    const row = await rowFor(input);
    if (!row.livemode) throw new NotFoundError('A test certificate has no verifiable credential');
    return row;
  }

  return {
    identity,
    didDocument: () => didDocument(identity),
    jwks: () => jwks(identity),

    /** The certificate's signed Open Badges credential (compact JWS); none for a test certificate (404). */
    async credentialJwt(input: string): Promise<string> {
      const row = await signableRowFor(input);
      const credential = credentialOf(row, publicBaseUrl, identity.did);
      return sign({
        ...credential,
        iss: identity.did,
        jti: credential.id,
        iat: Math.floor(row.created_at.getTime() / 1000),
        ...(credential.validUntil ? { exp: seconds(credential.validUntil) } : {}),
      });
    },

    /** The certificate's Open Badges credential in its JSON-LD form, with its Data Integrity proof. */
    async credentialWithProof(input: string) {
      const row = await signableRowFor(input);
      const created = new Date(Math.floor(row.created_at.getTime() / 1000) * 1000);
      return signWithDataIntegrity(credentialOf(row, publicBaseUrl, identity.did), proofKey, created, loader);
    },

    /** Status list `list` as a signed BitstringStatusListCredential (JWT), or not found when no certificate is on it. */
    async statusListJwt(list: number): Promise<string> {
      const now = new Date();
      const credential = await statusListCredential(list, now);
      return sign({ ...credential, iss: identity.did, jti: credential.id, iat: Math.floor(now.getTime() / 1000) });
    },

    /** Status list `list` in its JSON-LD form with a Data Integrity proof, or not found when no certificate is on it. */
    async statusListWithProof(list: number) {
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      return signWithDataIntegrity(await statusListCredential(list, now), proofKey, now, loader);
    },

    ...credentialVerifier(repository, key, identity, publicBaseUrl),
  };
}

/** Checks credentials handed back to the platform (their signature, revocation bit and expiry) and typed verification codes. */
function credentialVerifier(repository: CredentialsRepository, key: SigningKey, identity: IssuerIdentity, publicBaseUrl: string) {
  const publicKey: KeyObject = createPublicKey(key.privateKey);
  const statusListPrefix = statusListUrl(publicBaseUrl, 0).replace(/0$/, '');
  const loader = ownDocumentLoader(identity);

  async function verifySigned(jwt: string): Promise<VerificationResult> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(jwt).kid;
    } catch {
      return tampered('The credential could not be read: its signed header is damaged.');
    }
    if (kid !== identity.keyId) return tampered('The credential is not signed with a key this platform publishes.');
    let payload: Uint8Array;
    try {
      ({ payload } = await compactVerify(jwt, publicKey, { algorithms: ['EdDSA'] }));
    } catch {
      return tampered('The signature does not match the content: the credential was changed after it was issued.');
    }
    return assess(JSON.parse(Buffer.from(payload).toString('utf8')) as ReturnType<typeof credentialOf>);
  }

  async function verifyProof(document: Record<string, unknown>): Promise<VerificationResult> {
    const proof = document.proof as { verificationMethod?: unknown; cryptosuite?: unknown } | undefined;
    if (!proof || typeof proof !== 'object' || Array.isArray(proof)) return tampered('The credential does not carry one Data Integrity proof.');
    if (proof.verificationMethod !== identity.multikeyId) return tampered('The credential is not signed with a key this platform publishes.');
    if (proof.cryptosuite !== DATA_INTEGRITY_CRYPTOSUITE) return tampered(`The proof is not an ${DATA_INTEGRITY_CRYPTOSUITE} proof.`);
    let outcome: { verified: boolean };
    try {
      outcome = await verifyDataIntegrity(document, loader);
    } catch {
      outcome = { verified: false };
    }
    if (!outcome.verified) return tampered('The proof does not match the content: the credential was changed after it was issued.');
    return assess(document as unknown as ReturnType<typeof credentialOf>);
  }

  /** A credential whose signature or proof verified: what it says, its revocation bit, its expiry. */
  async function assess(credential: ReturnType<typeof credentialOf>): Promise<VerificationResult> {
    const summary = {
      id: credential.id,
      recipient_name: credential.credentialSubject?.identifier?.[0]?.identityHash ?? null,
      achievement: credential.credentialSubject?.achievement?.name ?? null,
      issuer_name: credential.issuer?.name ?? null,
      valid_from: credential.validFrom ?? null,
      valid_until: (credential as { validUntil?: string }).validUntil ?? null,
    };
    const status = credential.credentialStatus;
    const index = Number(status?.statusListIndex);
    const list = Number(String(status?.statusListCredential ?? '').slice(statusListPrefix.length));
    if (!status?.statusListCredential?.startsWith(statusListPrefix) || !Number.isInteger(index) || !Number.isInteger(list) || list < 1) {
      return tampered('The credential has no revocation status entry of this platform.');
    }
    if (await repository.isRevokedAt(firstPositionOf(list) + index)) {
      return { status: 'revoked', valid: false, reason: `${summary.issuer_name ?? 'The issuer'} has revoked this credential (its status list bit is set).`, credential: summary };
    }
    if (summary.valid_until && Date.parse(summary.valid_until) < Date.now()) {
      return { status: 'expired', valid: false, reason: `The credential expired on ${summary.valid_until.slice(0, 10)}.`, credential: summary };
    }
    return { status: 'valid', valid: true, reason: `The signature is the platform's and ${summary.issuer_name ?? 'the issuer'} has not revoked it.`, credential: summary };
  }

  return {
    /**
     * Checks a credential handed in (the JSON-LD credential with its proof, the JWT, the enveloped JWT, or their text):
     * proof or signature, revocation bit, expiry.
     */
    async verifyCredential(input: unknown): Promise<VerificationResult> {
      const withProof = dataIntegrityCredentialIn(input);
      if (withProof) return verifyProof(withProof);
      const jwt = jwtIn(input);
      if (!jwt) return tampered('This is not a credential of this platform: no signed credential (a Data Integrity proof or a vc+jwt) was found in it.');
      return verifySigned(jwt);
    },

    /** Looks a typed code up: the certificate's current status, as the public page shows it. */
    async verifyCode(input: string): Promise<VerificationResult> {
      const code = normalizeVerificationCode(input);
      const row = code ? await repository.byVerificationCode(code) : undefined;
      if (!row) return { status: 'unknown', valid: false, reason: 'No certificate has this verification code. Check the code you were given.', credential: null };
      const credential = credentialOf(row, publicBaseUrl, identity.did);
      const issuer = issuerNameOf(row.template_issuer_name, row.organization_name);
      const summary = {
        id: credential.id,
        recipient_name: row.recipient_name,
        achievement: row.program_title,
        issuer_name: issuer,
        valid_from: credential.validFrom,
        valid_until: credential.validUntil ?? null,
      };
      if (!row.livemode) return { status: 'test', valid: false, reason: `${TEST_CERTIFICATE_REASON} (${issuer})`, credential: summary };
      const status = certificateStatus(row.status, row.expires_on);
      const reason = {
        valid: `${issuer} issued this certificate and has not revoked it.`,
        revoked: `${issuer} has revoked this certificate.`,
        expired: `This certificate expired on ${row.expires_on}.`,
      }[status];
      return { status, valid: status === 'valid', reason, credential: summary };
    },
  };
}

export type VerifiableCredentialsService = ReturnType<typeof createVerifiableCredentialsService>;
