import { certificatesHandlers } from './features/certificates/certificates.handlers';
import { credentialsHandlers } from './features/credentials/credentials.handlers';
import { creditsHandlers } from './features/credits/credits.handlers';
import { documentsHandlers } from './features/documents/documents.handlers';
import { paymentsHandlers } from './features/payments/payments.handlers';
import { publicApiHandlers } from './features/verification/public-api.handlers';
import { templatesHandlers } from './features/templates/templates.handlers';
import type { CertificateDeps, CertificateServices } from './services';

/**
 * Every operation's handler, feature by feature, keyed by operation id. Where each is mounted, how it is guarded,
 * parsed, limited and audited is the route table's (`route-table.ts`); a feature gives only what it does.
 */
export function certificateHandlers(deps: CertificateDeps, services: CertificateServices): Record<string, (input: never) => unknown> {
  return {
    ...certificatesHandlers(services.certificates),
    ...documentsHandlers(services.documents),
    ...templatesHandlers(services.templates, services.documents.preview),
    ...paymentsHandlers({ ...services, dashboardUrl: `${services.publicBaseUrl.replace(/\/$/, '')}/dashboard`, logger: deps.logger }),
    ...creditsHandlers(services.credits),
    ...credentialsHandlers(services.credentials, services.verifiableCredentials),
    ...publicApiHandlers(services.publicApi),
  };
}
