/** The search feature's face: what the composition root uses of it. */
export { searchRouteTable } from './search.contract';
export { searchHandlers } from './search.handlers';
export { createCertificateSearchReader, type CertificateSearchReader } from './search.reader';
