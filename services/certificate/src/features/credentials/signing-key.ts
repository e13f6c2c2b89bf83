import { createHash, createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

/**
 * The platform's Ed25519 key that signs every verifiable credential and status list. `CREDENTIAL_SIGNING_KEY` holds it
 * as a PKCS#8 PEM (`openssl genpkey -algorithm ed25519`) or as a private JWK (`{"kty":"OKP","crv":"Ed25519","d":…,"x":…}`).
 * Unset (development and tests only; production refuses to start without it): a fixed key derived from a published seed,
 * so credentials issued on a development machine verify across restarts but prove nothing.
 */
const DEVELOPMENT_SEED = createHash('sha256').update('partner-platform development credential signing key (not secret)').digest();
/** The PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function developmentSigningKey(): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, DEVELOPMENT_SEED]), format: 'der', type: 'pkcs8' });
}

/** Whether `text` holds the published development key (in whichever form: PEM or JWK). */
export function isDevelopmentSigningKey(text: string): boolean {
  const parsed = parseSigningKey(text);
  if (typeof parsed === 'string') return false;
  const seed = (key: KeyObject) => (key.export({ format: 'jwk' }) as { d?: string }).d;
  return seed(parsed) === seed(developmentSigningKey());
}

/** The key in `text`, or an error message naming what is wrong (never the key itself). */
export function parseSigningKey(text: string): KeyObject | string {
  const trimmed = text.trim();
  let key: KeyObject;
  try {
    key = trimmed.startsWith('{')
      ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' })
      : createPrivateKey({ key: trimmed.replace(/\\n/g, '\n'), format: 'pem' });
  } catch {
    return 'must be an Ed25519 private key as PKCS#8 PEM or a private JWK';
  }
  if (key.asymmetricKeyType !== 'ed25519') return 'must be an Ed25519 key (EdDSA)';
  return key;
}

export interface SigningKey {
  privateKey: KeyObject;
  /** The public half as a JWK (`kty` OKP, `crv` Ed25519, `x`). */
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
}

export function signingKeyFrom(configured: string | undefined): SigningKey {
  const parsed = configured ? parseSigningKey(configured) : developmentSigningKey();
  if (typeof parsed === 'string') throw new Error(`CREDENTIAL_SIGNING_KEY ${parsed}`);
  const { x } = createPublicKey(parsed).export({ format: 'jwk' }) as { x: string };
  return { privateKey: parsed, publicJwk: { kty: 'OKP', crv: 'Ed25519', x } };
}
