import { createHash, createPublicKey } from 'node:crypto';
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { NotFoundError } from '@platform/service-kit/errors';
import { certificateStatus, TEST_CERTIFICATE_REASON } from '../certificates';
import { normalizeVerificationCode } from '../certificates';
import { credentialPageUrl, issuerNameOf } from '../documents';
import { DATA_INTEGRITY_CRYPTOSUITE, documentLoader, signWithDataIntegrity, verifyDataIntegrity } from './data-integrity';
import { issuerIdentityMark } from '../../platform/issuer-identity-mark';
import type { IssuersService } from './issuers.service';
import { didDocument, issuerIdentity, jwks, organizationOfDid, type IssuerIdentity } from './issuer-identity';
import { openBadgeCredential } from './open-badge';
import { promiseLru } from './promise-lru';
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
    /** Beside the issuer's name: `verified domain {domain}`, or `issuer identity not verified`. */
    issuer_identity: string;
    valid_from: string | null;
    valid_until: string | null;
  };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/**
 * Signed `credential.json` documents kept per service (a few KB each). Canonicalizing a credential for its proof takes
 * about a second of CPU when cold, and the same certificate always yields the same document, so each is signed once.
 */
const SIGNED_CREDENTIALS_KEPT = 1_000;

/**
 * The Open Badges 3.0 credential of a stored certificate, as this platform (its pages) issues it for the organization
 * (`issuerDid`: its own DID, or the platform's for certificates signed before organizations had keys of their own).
 */
function credentialOf(row: PublicCredentialRow, publicBaseUrl: string, issuerDid: string) {
  const pageUrl = credentialPageUrl(publicBaseUrl, row.verification_code);
  const issuerProfile = {
    ...(row.issuer_domain ? { url: `https://${row.issuer_domain}` } : {}),
    ...(row.has_logo ? { image: { id: `${pageUrl}/logo`, type: 'Image' as const } } : {}),
  };
  return openBadgeCredential({
    pageUrl,
    issuerDid,
    organizationName: issuerNameOf(row.template_issuer_name, row.organization_name), // the issuer the document names
    recipientName: row.recipient_name,
    programTitle: row.program_title,
    issueDate: row.issue_date,
    issuedAt: row.created_at,
    expiresOn: row.expires_on,
    statusListPosition: row.status_list_position,
    publicBaseUrl,
    recipientEmail: row.recipient_identity_hash && row.recipient_identity_salt ? { hash: row.recipient_identity_hash, salt: row.recipient_identity_salt } : null,
    ...(Object.keys(issuerProfile).length ? { issuerProfile } : {}),
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

/**
 * A document loader that knows the bundled JSON-LD contexts, the platform's own DID and its organizations' DIDs (read
 * from this platform's database), and nothing else.
 */
function ownDocumentLoader(identity: IssuerIdentity, issuers: IssuersService, publicBaseUrl: string) {
  const document = didDocument(identity);
  return documentLoader(async (did) => {
    if (did === identity.did) return document;
    const organization = organizationOfDid(publicBaseUrl, did);
    return organization ? issuers.didDocument(organization).catch(() => undefined) : undefined;
  });
}

/** A key credentials are signed with: the platform's, or one of an organization's. */
interface Signer {
  identity: IssuerIdentity;
  key: SigningKey;
}

/**
 * Signs every certificate as an Open Badges 3.0 credential, secured two ways with the same Ed25519 key: with JOSE
 * (VC-JOSE-COSE: a compact JWS, `typ` `vc+jwt`, EdDSA) and, in its JSON-LD form (`application/vc+ld+json`), with an
 * embedded Data Integrity proof (`eddsa-rdfc-2022`). Publishes the issuer's key and the revocation status lists (secured
 * the same two ways), and verifies credentials handed back to it. Credentials are built on request from the stored
 * certificate: the same certificate always yields the same bytes (Ed25519 signatures are deterministic, the proof is
 * dated when the certificate was issued), and revoking changes only its status list bit.
 */
export function createVerifiableCredentialsService(repository: CredentialsRepository, key: SigningKey, publicBaseUrl: string, issuers: IssuersService) {
  const identity = issuerIdentity(publicBaseUrl, key);
  const platform: Signer = { identity, key };
  const loader = ownDocumentLoader(identity, issuers, publicBaseUrl);
  const proofKeyOf = (signer: Signer) => ({ id: signer.identity.multikeyId, controller: signer.identity.did, privateKey: signer.key.privateKey });
  const signedCredentials = promiseLru<object>(SIGNED_CREDENTIALS_KEPT);

  async function sign(payload: Record<string, unknown>, signer: Signer = platform): Promise<string> {
    const header = { alg: 'EdDSA', kid: signer.identity.keyId, typ: 'vc+jwt', cty: 'vc' };
    return new CompactSign(Buffer.from(JSON.stringify(payload))).setProtectedHeader(header).sign(signer.key.privateKey);
  }

  /** The organization's own key (fixed the first time the certificate is signed), or the platform's for older ones. */
  async function signerFor(row: PublicCredentialRow): Promise<Signer> {
    return (await issuers.signerForCertificate(row.organization_id, row.verification_code)) ?? platform;
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
      const signer = await signerFor(row);
      const credential = credentialOf(row, publicBaseUrl, signer.identity.did);
      return sign(
        {
          ...credential,
          iss: signer.identity.did,
          jti: credential.id,
          iat: Math.floor(row.created_at.getTime() / 1000),
          ...(credential.validUntil ? { exp: seconds(credential.validUntil) } : {}),
        },
        signer,
      );
    },

    /**
     * The certificate's Open Badges credential in its JSON-LD form, with its Data Integrity proof. Signed once and kept,
     * keyed by the digest of the unsigned credential and the proof's date: whatever changes the credential (the
     * organization's new name, say) changes the key, so a kept document is never stale. A revoke changes only the
     * status list bit, so the revoked certificate's document is the one kept.
     */
    async credentialWithProof(input: string): Promise<object> {
      const row = await signableRowFor(input);
      const created = new Date(Math.floor(row.created_at.getTime() / 1000) * 1000);
      const signer = await signerFor(row);
      const credential = credentialOf(row, publicBaseUrl, signer.identity.did);
      const key = createHash('sha256').update(JSON.stringify([credential, created.toISOString(), signer.identity.multikeyId])).digest('base64url');
      const signed = await signedCredentials.get(key, () => signWithDataIntegrity(credential, proofKeyOf(signer), created, loader));
      return structuredClone(signed);
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
      return signWithDataIntegrity(await statusListCredential(list, now), proofKeyOf(platform), now, loader);
    },

    ...credentialVerifier(repository, identity, publicBaseUrl, issuers, loader),
  };
}

/** Finds the key a `kid` or `verificationMethod` names (`{did}#{fragment}`), when this platform publishes it. */
function publishedKeys(platform: IssuerIdentity, publicBaseUrl: string, issuers: IssuersService) {
  /** The published keys of a DID: the platform's one, or every key of an organization (rotated-out ones too). */
  async function keysOf(did: string): Promise<IssuerIdentity[]> {
    if (did === platform.did) return [platform];
    const organization = organizationOfDid(publicBaseUrl, did);
    return organization ? issuers.identities(organization) : [];
  }
  return async (id: unknown, which: 'keyId' | 'multikeyId'): Promise<IssuerIdentity | undefined> => {
    if (typeof id !== 'string' || !id.includes('#')) return undefined;
    return (await keysOf(id.slice(0, id.indexOf('#')))).find((candidate) => candidate[which] === id);
  };
}

/** What the platform knows of a credential's issuer now: its proved domain, found from the certificate it is of. */
async function identityMarkOf(repository: CredentialsRepository, credentialId: string): Promise<string> {
  const code = normalizeVerificationCode(decodeURIComponent(credentialId.slice(credentialId.lastIndexOf('/') + 1)));
  const row = code ? await repository.byVerificationCode(code) : undefined;
  return issuerIdentityMark(row?.issuer_domain ?? null);
}

/** Checks credentials handed back to the platform (their signature, revocation bit and expiry) and typed verification codes. */
function credentialVerifier(repository: CredentialsRepository, platform: IssuerIdentity, publicBaseUrl: string, issuers: IssuersService, loader: ReturnType<typeof documentLoader>) {
  const statusListPrefix = statusListUrl(publicBaseUrl, 0).replace(/0$/, '');
  const notOurs = () => tampered('The credential is not signed with a key this platform publishes.');
  const publishedKey = publishedKeys(platform, publicBaseUrl, issuers);

  /** The credential's issuer must be the DID whose key signed it: an organization cannot sign as another. */
  const issuerIdOf = (credential: { issuer?: unknown }) => (typeof credential.issuer === 'string' ? credential.issuer : (credential.issuer as { id?: unknown } | undefined)?.id);

  async function verifySigned(jwt: string): Promise<VerificationResult> {
    let kid: string | undefined;
    try {
      kid = decodeProtectedHeader(jwt).kid;
    } catch {
      return tampered('The credential could not be read: its signed header is damaged.');
    }
    const signer = await publishedKey(kid, 'keyId');
    if (!signer) return notOurs();
    let payload: Uint8Array;
    try {
      ({ payload } = await compactVerify(jwt, createPublicKey({ key: signer.publicJwk, format: 'jwk' }), { algorithms: ['EdDSA'] }));
    } catch {
      return tampered('The signature does not match the content: the credential was changed after it was issued.');
    }
    const credential = JSON.parse(Buffer.from(payload).toString('utf8')) as ReturnType<typeof credentialOf> & { iss?: unknown };
    if (issuerIdOf(credential) !== signer.did || credential.iss !== signer.did) return notOurs();
    return assess(credential);
  }

  async function verifyProof(document: Record<string, unknown>): Promise<VerificationResult> {
    const proof = document.proof as { verificationMethod?: unknown; cryptosuite?: unknown } | undefined;
    if (!proof || typeof proof !== 'object' || Array.isArray(proof)) return tampered('The credential does not carry one Data Integrity proof.');
    const signer = await publishedKey(proof.verificationMethod, 'multikeyId');
    if (!signer || issuerIdOf(document) !== signer.did) return notOurs();
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
    const mark = await identityMarkOf(repository, String(credential.id ?? ''));
    const summary = {
      id: credential.id,
      recipient_name: credential.credentialSubject?.identifier?.[0]?.identityHash ?? null,
      achievement: credential.credentialSubject?.achievement?.name ?? null,
      issuer_name: credential.issuer?.name ?? null,
      issuer_identity: mark,
      valid_from: credential.validFrom ?? null,
      valid_until: (credential as { validUntil?: string }).validUntil ?? null,
    };
    const issuer = `${summary.issuer_name ?? 'The issuer'} (${mark})`;
    const status = credential.credentialStatus;
    const index = Number(status?.statusListIndex);
    const list = Number(String(status?.statusListCredential ?? '').slice(statusListPrefix.length));
    if (!status?.statusListCredential?.startsWith(statusListPrefix) || !Number.isInteger(index) || !Number.isInteger(list) || list < 1) {
      return tampered('The credential has no revocation status entry of this platform.');
    }
    if (await repository.isRevokedAt(firstPositionOf(list) + index)) {
      return { status: 'revoked', valid: false, reason: `${issuer} has revoked this credential (its status list bit is set).`, credential: summary };
    }
    if (summary.valid_until && Date.parse(summary.valid_until) < Date.now()) {
      return { status: 'expired', valid: false, reason: `The credential expired on ${summary.valid_until.slice(0, 10)}. Issued by ${issuer}.`, credential: summary };
    }
    return { status: 'valid', valid: true, reason: `The signature is made with a key this platform publishes for the issuer, and ${issuer} has not revoked it.`, credential: summary };
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
      const credential = credentialOf(row, publicBaseUrl, platform.did);
      const mark = issuerIdentityMark(row.issuer_domain);
      const issuerName = issuerNameOf(row.template_issuer_name, row.organization_name);
      const issuer = `${issuerName} (${mark})`;
      const summary = {
        id: credential.id,
        recipient_name: row.recipient_name,
        achievement: row.program_title,
        issuer_name: issuerName,
        issuer_identity: mark,
        valid_from: credential.validFrom,
        valid_until: credential.validUntil ?? null,
      };
      if (!row.livemode) return { status: 'test', valid: false, reason: `${TEST_CERTIFICATE_REASON} (${issuer})`, credential: summary };
      const status = certificateStatus(row.status, row.expires_on);
      const reason = {
        valid: `${issuer} issued this certificate and has not revoked it.`,
        revoked: `${issuer} has revoked this certificate.`,
        expired: `This certificate expired on ${row.expires_on}. Issued by ${issuer}.`,
      }[status];
      return { status, valid: status === 'valid', reason, credential: summary };
    },
  };
}

export type VerifiableCredentialsService = ReturnType<typeof createVerifiableCredentialsService>;
