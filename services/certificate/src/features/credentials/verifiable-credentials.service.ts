import { createPublicKey, type KeyObject } from 'node:crypto';
import { CompactSign, compactVerify, decodeProtectedHeader } from 'jose';
import { NotFoundError } from '@platform/service-kit/errors';
import { certificateStatus, TEST_CERTIFICATE_REASON } from '../certificates';
import { normalizeVerificationCode } from '../certificates';
import { credentialPageUrl } from '../documents';
import { didDocument, issuerIdentity, jwks, type IssuerIdentity } from './issuer-identity';
import { openBadgeCredential } from './open-badge';
import type { CredentialsRepository, PublicCredentialRow } from './credentials.repository';
import type { SigningKey } from './signing-key';
import { encodeStatusList, firstPositionOf, STATUS_LIST_SIZE, statusListUrl } from './status-list';

export const VC_JWT = 'application/vc+jwt';
export const VC_LD_JSON = 'application/vc+ld+json';
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

/** A VC 2.0 `EnvelopedVerifiableCredential`: the signed JWT as a data: URL, for JSON-LD consumers and the `.json` download. */
export function envelope(jwt: string) {
  return { '@context': ['https://www.w3.org/ns/credentials/v2'], id: `${ENVELOPE_PREFIX}${jwt}`, type: 'EnvelopedVerifiableCredential' };
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** The Open Badges 3.0 credential of a stored certificate, as this platform (its DID, its pages) issues it. */
function credentialOf(row: PublicCredentialRow, publicBaseUrl: string, issuerDid: string) {
  return openBadgeCredential({
    pageUrl: credentialPageUrl(publicBaseUrl, row.verification_code),
    issuerDid,
    organizationName: row.organization_name,
    recipientName: row.recipient_name,
    programTitle: row.program_title,
    issueDate: row.issue_date,
    expiresOn: row.expires_on,
    statusListPosition: row.status_list_position,
    publicBaseUrl,
  });
}

const tampered = (reason: string): VerificationResult => ({ status: 'tampered', valid: false, reason, credential: null });

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
 * Signs every certificate as an Open Badges 3.0 credential secured with JOSE (VC-JOSE-COSE: a compact JWS, `typ`
 * `vc+jwt`, EdDSA over Ed25519), publishes the issuer's key and the revocation status lists, and verifies credentials
 * handed back to it. Credentials are built on request from the stored certificate: the same certificate always yields
 * the same bytes (Ed25519 signatures are deterministic), and revoking changes only its status list bit.
 */
export function createVerifiableCredentialsService(repository: CredentialsRepository, key: SigningKey, publicBaseUrl: string) {
  const identity = issuerIdentity(publicBaseUrl, key);
  const header = { alg: 'EdDSA', kid: identity.keyId, typ: 'vc+jwt', cty: 'vc' };

  async function sign(payload: Record<string, unknown>): Promise<string> {
    return new CompactSign(Buffer.from(JSON.stringify(payload))).setProtectedHeader(header).sign(key.privateKey);
  }

  async function rowFor(input: string) {
    const code = normalizeVerificationCode(input);
    const row = code ? await repository.byVerificationCode(code) : undefined;
    if (!row) throw new NotFoundError('Certificate not found');
    return row;
  }

  return {
    identity,
    didDocument: () => didDocument(identity),
    jwks: () => jwks(identity),

    /**
     * The certificate's signed Open Badges credential (compact JWS). A test certificate has none (404): nothing signed
     * by the platform may claim a test certificate is a credential.
     */
    async credentialJwt(input: string): Promise<string> {
      const row = await rowFor(input);
      if (!row.livemode) throw new NotFoundError('A test certificate has no verifiable credential');
      const credential = credentialOf(row, publicBaseUrl, identity.did);
      return sign({
        ...credential,
        iss: identity.did,
        jti: credential.id,
        iat: Math.floor(row.created_at.getTime() / 1000),
        ...(credential.validUntil ? { exp: seconds(credential.validUntil) } : {}),
      });
    },

    /** Status list `list` as a signed BitstringStatusListCredential, or not found when no certificate is on it. */
    async statusListJwt(list: number): Promise<string> {
      const from = firstPositionOf(list);
      if (!(await repository.anyPositionIn(from, from + STATUS_LIST_SIZE))) throw new NotFoundError('Status list not found');
      const revoked = await repository.revokedPositions(from, from + STATUS_LIST_SIZE);
      const url = statusListUrl(publicBaseUrl, list);
      const now = new Date();
      return sign({
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        id: url,
        type: ['VerifiableCredential', 'BitstringStatusListCredential'],
        issuer: identity.did,
        validFrom: now.toISOString(),
        credentialSubject: { id: `${url}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: encodeStatusList(revoked.map((position) => position - from)) },
        iss: identity.did,
        jti: url,
        iat: Math.floor(now.getTime() / 1000),
      });
    },

    ...credentialVerifier(repository, key, identity, publicBaseUrl),
  };
}

/** Checks credentials handed back to the platform (their signature, revocation bit and expiry) and typed verification codes. */
function credentialVerifier(repository: CredentialsRepository, key: SigningKey, identity: IssuerIdentity, publicBaseUrl: string) {
  const publicKey: KeyObject = createPublicKey(key.privateKey);
  const statusListPrefix = statusListUrl(publicBaseUrl, 0).replace(/0$/, '');

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
    const credential = JSON.parse(Buffer.from(payload).toString('utf8')) as ReturnType<typeof credentialOf>;
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
    /** Checks a credential handed in (JWT, enveloped JSON, or their text): signature, revocation bit, expiry. */
    async verifyCredential(input: unknown): Promise<VerificationResult> {
      const jwt = jwtIn(input);
      if (!jwt) return tampered('This is not a credential of this platform: no signed credential (vc+jwt) was found in it.');
      return verifySigned(jwt);
    },

    /** Looks a typed code up: the certificate's current status, as the public page shows it. */
    async verifyCode(input: string): Promise<VerificationResult> {
      const code = normalizeVerificationCode(input);
      const row = code ? await repository.byVerificationCode(code) : undefined;
      if (!row) return { status: 'unknown', valid: false, reason: 'No certificate has this verification code. Check the code you were given.', credential: null };
      const credential = credentialOf(row, publicBaseUrl, identity.did);
      const summary = {
        id: credential.id,
        recipient_name: row.recipient_name,
        achievement: row.program_title,
        issuer_name: row.organization_name,
        valid_from: credential.validFrom,
        valid_until: credential.validUntil ?? null,
      };
      if (!row.livemode) return { status: 'test', valid: false, reason: `${TEST_CERTIFICATE_REASON} (${row.organization_name})`, credential: summary };
      const status = certificateStatus(row.status, row.expires_on);
      const reason = {
        valid: `${row.organization_name} issued this certificate and has not revoked it.`,
        revoked: `${row.organization_name} has revoked this certificate.`,
        expired: `This certificate expired on ${row.expires_on}.`,
      }[status];
      return { status, valid: status === 'valid', reason, credential: summary };
    },
  };
}

export type VerifiableCredentialsService = ReturnType<typeof createVerifiableCredentialsService>;
