import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { ApiError, NotFoundError, ValidationError } from '@platform/service-kit/errors';
import type { TargetPolicy } from '@platform/service-kit/ssrf-guard';
import { didDocument, identityOf, jwkThumbprint, organizationDid, type IssuerIdentity } from './issuer-identity';
import type { SigningKey } from './signing-key';
import { fetchDomainProof, normalizeDomain, proofUrl } from './domain-proof';
import { issuerIdentityMark } from '../../platform/issuer-identity-mark';
import type { IssuerKeyCipher } from './issuer-key-cipher';
import type { IssuerKeyRow, IssuerOrganizationRow, IssuersRepository } from './issuers.repository';

/** The PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** One of an organization's keys, ready to sign with (the private half decrypted only when asked for). */
export interface OrganizationSigner {
  identity: IssuerIdentity;
  key: SigningKey;
}

export interface IssuersSettings {
  publicBaseUrl: string;
  cipher: IssuerKeyCipher;
  /** ISSUER_DOMAIN_ALLOW_HTTP / ISSUER_DOMAIN_ALLOW_PRIVATE: what the domain check may fetch. */
  domainPolicy: TargetPolicy;
}

/**
 * Each organization issues as itself: its own did:web under the platform's host, with its own Ed25519 key (made the
 * first time one of its certificates is signed, rotatable; rotated-out keys stay in its DID document), and a domain it
 * may prove by serving a token at `https://{domain}/.well-known/partner-platform-issuer.txt`.
 */
/** The organizations' keys: made, stored encrypted, and read back to sign with. */
function issuerKeyStore(repository: IssuersRepository, didOf: (organizationId: string) => string, cipher: IssuerKeyCipher) {
  const aadOf = (row: Pick<IssuerKeyRow, 'organization_id' | 'id'>) => `${row.organization_id}\n${row.id}`;
  const identityOfRow = (row: IssuerKeyRow) => identityOf(didOf(row.organization_id), { kty: 'OKP', crv: 'Ed25519', x: row.public_x });

  /** A new key for the organization: its row (the private seed encrypted), not stored yet. */
  function newKeyRow(organizationId: string) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
    const { d } = privateKey.export({ format: 'jwk' }) as { d: string };
    const id = jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x });
    return { id, organization_id: organizationId, public_x: x, private_key_encrypted: cipher.encrypt(`${organizationId}\n${id}`, Buffer.from(d, 'base64url')) };
  }

  function privateKeyOf(row: IssuerKeyRow): KeyObject {
    const seed = cipher.decrypt(aadOf(row), row.private_key_encrypted);
    return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }

  const signerOf = (row: IssuerKeyRow): OrganizationSigner => {
    const identity = identityOfRow(row);
    return { identity, key: { privateKey: privateKeyOf(row), publicJwk: identity.publicJwk } };
  };

  /** The organization's current key, made now when it has none yet. */
  async function currentKey(organizationId: string): Promise<IssuerKeyRow> {
    const current = await repository.currentKey(organizationId);
    if (current) return current;
    await repository.addCurrentKey(newKeyRow(organizationId));
    const made = await repository.currentKey(organizationId);
    if (!made) throw new Error(`issuer key of ${organizationId} was not stored`);
    return made;
  }

  return { identityOfRow, newKeyRow, signerOf, currentKey };
}

export function createIssuersService(repository: IssuersRepository, { publicBaseUrl, cipher, domainPolicy }: IssuersSettings) {
  const didOf = (organizationId: string) => organizationDid(publicBaseUrl, organizationId);
  const { identityOfRow, newKeyRow, signerOf, currentKey } = issuerKeyStore(repository, didOf, cipher);

  async function organizationOf(organizationId: string): Promise<IssuerOrganizationRow> {
    const organization = await repository.organization(organizationId);
    if (!organization) throw new NotFoundError('Organization not found');
    return organization;
  }

  /** What the dashboard shows of the issuer: its DID, its keys, its domain and any pending proof. */
  async function view(organizationId: string) {
    const organization = await organizationOf(organizationId);
    const keys = await repository.keys(organizationId);
    const challenge = await repository.challenge(organizationId);
    const did = didOf(organizationId);
    return {
      did,
      did_document_url: `${publicBaseUrl.replace(/\/+$/, '')}/issuers/${encodeURIComponent(organizationId)}/did.json`,
      name: organization.name,
      keys: keys.map((row) => ({ id: identityOfRow(row).keyId, created_at: row.created_at.toISOString(), retired_at: row.retired_at?.toISOString() ?? null, current: row.retired_at === null })),
      domain: organization.issuer_domain,
      domain_verified_at: organization.issuer_domain_verified_at?.toISOString() ?? null,
      identity: issuerIdentityMark(organization.issuer_domain),
      pending_domain: challenge ? { domain: challenge.domain, token: challenge.token, proof_url: proofUrl(challenge.domain, domainPolicy), started_at: challenge.created_at.toISOString() } : null,
    };
  }

  return {
    didOf,
    view,

    /**
     * The key a certificate's credential is signed with: the platform's (`null`, certificates stored before issuers had
     * keys of their own), or the organization's key fixed the first time it was signed (its current key then).
     */
    async signerForCertificate(organizationId: string, verificationCode: string): Promise<OrganizationSigner | null> {
      let keyId = await repository.certificateKey(verificationCode);
      if (keyId === undefined) throw new NotFoundError('Certificate not found');
      if (keyId === 'platform') return null;
      if (keyId === null) keyId = await repository.assignCertificateKey(verificationCode, (await currentKey(organizationId)).id);
      const row = await repository.key(organizationId, keyId);
      if (!row) throw new Error(`issuer key ${keyId} of ${organizationId} is missing`);
      return signerOf(row);
    },

    /** Every published key of the organization (for verifying), or none. */
    async identities(organizationId: string): Promise<IssuerIdentity[]> {
      return (await repository.keys(organizationId)).map(identityOfRow);
    },

    /** The organization's DID document: every key it ever signed with. Not found before its first signed credential. */
    async didDocument(organizationId: string) {
      const keys = await repository.keys(organizationId);
      if (keys.length === 0) throw new NotFoundError('Issuer not found');
      return didDocument(keys.map(identityOfRow));
    },

    /** A new current key; the one before stays published, so the credentials it signed keep verifying. */
    async rotateKey(organizationId: string) {
      await organizationOf(organizationId);
      await repository.rotate(organizationId, newKeyRow(organizationId));
      return view(organizationId);
    },

    /** Starts proving a domain: the token to serve and where. A new start replaces the pending one. */
    async startDomainVerification(organizationId: string, input: string) {
      await organizationOf(organizationId);
      const domain = normalizeDomain(input, domainPolicy);
      if (!domain) throw new ValidationError([{ path: 'domain', message: 'must be a domain name, such as academy.example.org' }]);
      const challenge = await repository.saveChallenge({ organization_id: organizationId, domain, token: `ppi-${randomBytes(24).toString('base64url')}` });
      const url = proofUrl(domain, domainPolicy);
      return {
        domain,
        token: challenge.token,
        proof_url: url,
        instructions: `Serve the token as the only line of a text file at ${url}, then check the domain.`,
      };
    },

    /** Fetches the proof file (through the SSRF guard); when it holds the token, the domain is the organization's. */
    async checkDomainVerification(organizationId: string) {
      await organizationOf(organizationId);
      const challenge = await repository.challenge(organizationId);
      if (!challenge) throw new ApiError(409, 'no_domain_verification', 'No domain verification was started: start one first.');
      const url = proofUrl(challenge.domain, domainPolicy);
      const text = await fetchDomainProof(url, domainPolicy);
      if (!text.split(/\r?\n/).some((line) => line.trim() === challenge.token)) {
        throw new ApiError(422, 'domain_proof_mismatch', `The file at ${url} does not hold this verification's token.`);
      }
      await repository.markDomainVerified(organizationId, challenge.domain);
      return view(organizationId);
    },

    /** The operator's word that the organization controls the domain (`cli organizations verify-domain`). */
    async markDomainVerified(organizationId: string, input: string) {
      const domain = normalizeDomain(input, { allowHttp: false, allowPrivate: false });
      if (!domain) throw new ValidationError([{ path: 'domain', message: 'must be a domain name, such as academy.example.org' }]);
      const row = await repository.markDomainVerified(organizationId, domain);
      if (!row) throw new NotFoundError('Organization not found');
      return { id: row.id, name: row.name, domain: row.issuer_domain, domain_verified_at: row.issuer_domain_verified_at?.toISOString() ?? null };
    },
  };
}

export type IssuersService = ReturnType<typeof createIssuersService>;
