import { createHash } from 'node:crypto';
import { ed25519PublicKeyMultibase } from './data-integrity';
import type { SigningKey } from './signing-key';

/**
 * Who signs the credentials: the platform, as a `did:web` DID made from `PUBLIC_BASE_URL`'s host (a port is written
 * `%3A`), resolved at `{origin}/.well-known/did.json`. The key's id is its JWK thumbprint (RFC 7638), so a new key
 * never reuses an old id. The same key is also published as a Multikey (`publicKeyMultibase`), the form Data Integrity
 * proofs name: its id is `{did}#{publicKeyMultibase}`.
 */
export interface IssuerIdentity {
  did: string;
  /** `{did}#{thumbprint}`: the `kid` of every signature. */
  keyId: string;
  publicJwk: SigningKey['publicJwk'];
  /** `{did}#{publicKeyMultibase}`: the `verificationMethod` of every Data Integrity proof. */
  multikeyId: string;
  publicKeyMultibase: string;
}

export function didWebOf(publicBaseUrl: string): string {
  return `did:web:${encodeURIComponent(new URL(publicBaseUrl).host)}`;
}

/**
 * An organization's own issuer DID, under the platform's host: `did:web:{host}:issuers:{organization id}`, which
 * did:web resolves at `{origin}/issuers/{organization id}/did.json`.
 */
export function organizationDid(publicBaseUrl: string, organizationId: string): string {
  return `${didWebOf(publicBaseUrl)}:issuers:${encodeURIComponent(organizationId)}`;
}

/** The organization id in an organization's DID (`did:web:{host}:issuers:{id}`), or null for any other DID. */
export function organizationOfDid(publicBaseUrl: string, did: string): string | null {
  const prefix = `${didWebOf(publicBaseUrl)}:issuers:`;
  if (!did.startsWith(prefix)) return null;
  const encoded = did.slice(prefix.length);
  if (!encoded || encoded.includes(':')) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/** The JWK thumbprint (RFC 7638) of an Ed25519 public key: the key's id. */
export function jwkThumbprint({ crv, kty, x }: SigningKey['publicJwk']): string {
  return createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
}

export function issuerIdentity(publicBaseUrl: string, key: SigningKey): IssuerIdentity {
  return identityOf(didWebOf(publicBaseUrl), key.publicJwk);
}

/** The identity of one key of the issuer `did`. */
export function identityOf(did: string, publicJwk: SigningKey['publicJwk']): IssuerIdentity {
  const publicKeyMultibase = ed25519PublicKeyMultibase(publicJwk.x);
  return { did, keyId: `${did}#${jwkThumbprint(publicJwk)}`, publicJwk, multikeyId: `${did}#${publicKeyMultibase}`, publicKeyMultibase };
}

/**
 * The DID document: each Ed25519 key (the platform's one; an organization's current and rotated-out ones), for
 * assertions (signing credentials), twice: as a JsonWebKey2020 (the `kid` of the JWTs) and as a Multikey (the
 * `verificationMethod` of the Data Integrity proofs).
 */
export function didDocument(identity: IssuerIdentity | readonly IssuerIdentity[]) {
  const keys = Array.isArray(identity) ? (identity as readonly IssuerIdentity[]) : [identity as IssuerIdentity];
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1', 'https://w3id.org/security/multikey/v1'],
    id: keys[0]!.did,
    verificationMethod: keys.flatMap((key) => [
      { id: key.keyId, type: 'JsonWebKey2020', controller: key.did, publicKeyJwk: key.publicJwk },
      { id: key.multikeyId, type: 'Multikey', controller: key.did, publicKeyMultibase: key.publicKeyMultibase },
    ]),
    assertionMethod: keys.flatMap((key) => [key.keyId, key.multikeyId]),
  };
}

/** The same key as a JSON Web Key Set, for verifiers that read JWKS rather than DIDs. */
export function jwks(identity: IssuerIdentity) {
  return { keys: [{ ...identity.publicJwk, kid: identity.keyId, alg: 'EdDSA', use: 'sig' }] };
}
