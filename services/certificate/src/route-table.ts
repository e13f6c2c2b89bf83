import type { RouteSpec } from '@platform/service-kit/route-table';
import { accountsRouteTable } from './features/accounts/accounts.contract';
import { apiKeysRouteTable } from './features/api-keys/api-keys.contract';
import { auditRouteTable } from './features/audit/audit.contract';
import { certificatesRouteTable } from './features/certificates/certificates.contract';
import { credentialsRouteTable } from './features/credentials/credentials.contract';
import { creditsRouteTable } from './features/credits/credits.contract';
import { documentsRouteTable } from './features/documents/documents.contract';
import { invoicesRouteTable } from './features/payments/invoices.contract';
import { issuersRouteTable } from './features/credentials/issuers.contract';
import { paymentsRouteTable } from './features/payments/payments.contract';
import { summaryRouteTable } from './features/summary/summary.contract';
import { searchRouteTable } from './features/search/search.contract';
import { templatesRouteTable } from './features/templates/templates.contract';
import { publicApiRouteTable } from './features/verification/public-api.contract';
import { operationsRouteTable } from './operations.contract';

/** Every operation the certificate service answers, in the order of its description. */
export const certificateRouteTable: readonly RouteSpec[] = [
  ...accountsRouteTable,
  ...publicApiRouteTable,
  ...credentialsRouteTable,
  ...issuersRouteTable,
  ...paymentsRouteTable,
  ...invoicesRouteTable,
  ...apiKeysRouteTable,
  ...certificatesRouteTable,
  ...documentsRouteTable,
  ...templatesRouteTable,
  ...creditsRouteTable,
  ...summaryRouteTable,
  ...searchRouteTable,
  ...operationsRouteTable,
  ...auditRouteTable,
];
