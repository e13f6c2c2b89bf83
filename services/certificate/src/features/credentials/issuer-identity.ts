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

export function issuerIdentity(publicBaseUrl: string, key: SigningKey): IssuerIdentity {
  const did = didWebOf(publicBaseUrl);
  const { crv, kty, x } = key.publicJwk;
  const thumbprint = createHash('sha256').update(JSON.stringify({ crv, kty, x })).digest('base64url');
  const publicKeyMultibase = ed25519PublicKeyMultibase(x);
  return { did, keyId: `${did}#${thumbprint}`, publicJwk: key.publicJwk, multikeyId: `${did}#${publicKeyMultibase}`, publicKeyMultibase };
}

/**
 * The DID document: one Ed25519 key, for assertions (signing credentials), twice: as a JsonWebKey2020 (the `kid` of
 * the JWTs) and as a Multikey (the `verificationMethod` of the Data Integrity proofs).
 */
export function didDocument(identity: IssuerIdentity) {
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1', 'https://w3id.org/security/multikey/v1'],
    id: identity.did,
    verificationMethod: [
      { id: identity.keyId, type: 'JsonWebKey2020', controller: identity.did, publicKeyJwk: identity.publicJwk },
      { id: identity.multikeyId, type: 'Multikey', controller: identity.did, publicKeyMultibase: identity.publicKeyMultibase },
    ],
    assertionMethod: [identity.keyId, identity.multikeyId],
  };
}

/** The same key as a JSON Web Key Set, for verifiers that read JWKS rather than DIDs. */
export function jwks(identity: IssuerIdentity) {
  return { keys: [{ ...identity.publicJwk, kid: identity.keyId, alg: 'EdDSA', use: 'sig' }] };
}
