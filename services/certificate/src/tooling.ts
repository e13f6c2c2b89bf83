/**
 * The certificate service's entry point for the repository's tools (benchmarks, drills, local runs): what they may
 * build the service from in-process. Published as `@platform/certificate/tooling`; tools import nothing else of `src/`.
 */
export { CERTIFICATE_SCHEMA, certificateConfigSchema } from './config';
export type { CertificateConfig } from './config';
export { migrations } from './db/migrations';
export { buildServices } from './services';
export type { CertificateDeps, CertificateServices } from './services';
