// The parts of the Digital Credentials Consortium's verifier building blocks (the libraries
// @digitalcredentials/verifier-core is made of) that credentials.data-integrity.test.ts uses: they ship no TypeScript
// declarations.

declare module '@digitalcredentials/vc' {
  export interface VerifyCredentialResult {
    verified: boolean;
    error?: { message?: string; errors?: Error[] };
    log?: Array<{ id: string; valid: boolean }>;
    statusResult?: { verified: boolean; results?: Array<{ verified: boolean; credentialStatus: { statusPurpose: string } }>; error?: Error };
  }
  export function verifyCredential(options: {
    credential: object;
    suite: unknown;
    documentLoader: (url: string) => Promise<{ contextUrl: null; documentUrl: string; document: unknown }>;
    checkStatus?: unknown;
    verifyMatchingIssuers?: boolean;
  }): Promise<VerifyCredentialResult>;
}

declare module '@digitalcredentials/vc-bitstring-status-list' {
  export function checkStatus(options: object): Promise<{ verified: boolean }>;
}

declare module '@digitalcredentials/data-integrity' {
  export class DataIntegrityProof {
    constructor(options: { cryptosuite: unknown });
  }
}

declare module '@digitalcredentials/eddsa-rdfc-2022-cryptosuite' {
  export const cryptosuite: { name: string };
}
