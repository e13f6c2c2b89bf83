import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import { adminLivemode } from '../../platform/admin-mode';
import type { searchRouteTable } from './search.contract';
import type { CertificateSearchReader } from './search.reader';

/** `GET /admin/v1/search`: the token's organization's certificates (in the query's mode) and members matching `q`. */
export function searchHandlers(search: CertificateSearchReader): Handlers<typeof searchRouteTable> {
  return {
    adminSearchCertificates: async ({ query, req }) => ({
      status: 200,
      body: { query: query.q, data: await search(adminOf(req).org, { q: query.q, livemode: adminLivemode(req), limit: query.limit }) },
    }),
  };
}
