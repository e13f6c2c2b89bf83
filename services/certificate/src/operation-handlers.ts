import type { Metrics } from '@platform/service-kit/metrics';
import { accountsHandlers } from './features/accounts';
import { apiKeysHandlers } from './features/api-keys';
import { auditHandlers } from './features/audit/audit.handlers';
import { creditsHandlers } from './features/credits';
import { summaryHandlers } from './features/summary';
import { createCertificateSearchReader, searchHandlers } from './features/search';
import { certificateOpenApi } from './openapi';
import { operationsHandlers } from './operations.handlers';
import { certificatesHandlers } from './features/certificates/certificates.handlers';
import { credentialsHandlers } from './features/credentials/credentials.handlers';
import { documentsHandlers } from './features/documents/documents.handlers';
import { invoicesHandlers } from './features/payments/invoices.handlers';
import { issuersHandlers } from './features/credentials/issuers.handlers';
import { paymentsHandlers } from './features/payments/payments.handlers';
import { publicApiHandlers } from './features/verification/public-api.handlers';
import { templatesHandlers } from './features/templates/templates.handlers';
import type { CertificateDeps, CertificateServices } from './services';

/**
 * Every operation's handler, feature by feature, keyed by operation id. Where each is mounted, how it is guarded,
 * parsed, limited and audited is the route table's (`route-table.ts`); a feature gives only what it does.
 */
export function certificateHandlers(deps: CertificateDeps & { metrics: Metrics }, services: CertificateServices): Record<string, (input: never) => unknown> {
  const { db, config, metrics } = deps;
  return {
    ...accountsHandlers(services.accounts, services.members, { refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS, trustProxyHops: config.TRUST_PROXY_HOPS }),
    ...apiKeysHandlers(services.apiKeys),
    ...auditHandlers(db),
    ...creditsHandlers(services.credits),
    ...summaryHandlers(services.summary),
    ...searchHandlers(createCertificateSearchReader(db)),
    ...certificatesHandlers(services.certificates),
    ...documentsHandlers(services.documents),
    ...templatesHandlers(services.templates, (organizationId, preview, issuerName) => services.documents.preview(organizationId, preview, issuerName, config.DOCUMENT_RENDER_WAIT_MS)),
    ...paymentsHandlers({ ...services, dashboardUrl: `${services.publicBaseUrl.replace(/\/$/, '')}/dashboard`, logger: deps.logger }),
    ...invoicesHandlers(services),
    ...credentialsHandlers(services.credentials, services.verifiableCredentials),
    ...issuersHandlers(services.issuers),
    ...publicApiHandlers(services.publicApi),
    ...operationsHandlers({ checks: { postgres: () => db.raw('select 1') }, metrics, openApi: certificateOpenApi() }),
  };
}
