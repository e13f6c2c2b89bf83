import { adminOf } from '@platform/service-kit/admin-auth';
import { idParam } from '@platform/service-kit/ids';
import { parseOrThrow } from '@platform/service-kit/validation';
import type { Handlers } from '@platform/service-kit/operations';
import { adminLivemode } from '../../platform/admin-mode';
import { certificatesFromCsv } from './certificates-csv';
import type { certificatesRouteTable } from './certificates.contract';
import { batchSchema, type NewCertificate } from './certificates.schema';
import type { CertificatesService } from './certificates.service';

/**
 * `/admin/v1/certificates`: issue one or a batch (JSON or CSV), list, read, revoke and mail the recipient again, inside the caller's organization
 * and in the mode its query asks for (`?mode=test`: test certificates; live ones by default).
 */
export function certificatesHandlers(service: CertificatesService): Handlers<typeof certificatesRouteTable> {
  return {
    issueCertificate: async ({ body, req }) => ({ status: 201, body: await service.issue(adminOf(req).org, body, adminLivemode(req)) }),
    issueCertificateBatch: async ({ body, req }) => {
      // A CSV upload becomes the JSON form's body, then is checked like it; a JSON body the table has already checked.
      const { certificates } = typeof body === 'string' ? parseOrThrow(batchSchema, certificatesFromCsv(body)) : (body as { certificates: NewCertificate[] });
      return { status: 201, body: { data: await service.issueBatch(adminOf(req).org, certificates, adminLivemode(req)), has_more: false, next_cursor: null } };
    },
    listCertificates: async ({ query, req }) => ({ status: 200, body: await service.list(adminOf(req).org, { limit: query.limit, cursor: query.cursor ?? query.starting_after }, adminLivemode(req)) }),
    getCertificate: async ({ params, req }) => ({ status: 200, body: await service.get(adminOf(req).org, certificateId(params.id), adminLivemode(req)) }),
    revokeCertificate: async ({ params, req }) => ({ status: 200, body: await service.revoke(adminOf(req).org, certificateId(params.id), adminLivemode(req)) }),
    resendCertificateMail: async ({ params, req }) => ({ status: 200, body: await service.resend(adminOf(req).org, certificateId(params.id), adminLivemode(req)) }),
  };
}

/** An id of another shape names no certificate: 404, as any unknown id. */
function certificateId(value: string): string {
  return idParam('cert', value, 'Certificate not found');
}
