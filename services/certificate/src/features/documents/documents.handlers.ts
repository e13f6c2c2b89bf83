import { adminOf } from '@platform/service-kit/admin-auth';
import { isIdOf } from '@platform/service-kit/ids';
import { NotFoundError } from '@platform/service-kit/errors';
import type { Handlers } from '@platform/service-kit/operations';
import { adminLivemode } from '../../platform/admin-mode';
import type { documentsRouteTable } from './documents.contract';
import { DOCUMENT_CONTENT_TYPES, type DocumentsService } from './documents.service';

/** `GET /admin/v1/certificates/{id}/document`: the rendered certificate, as PDF (default) or PNG, written as bytes. */
export function documentsHandlers(documents: DocumentsService): Handlers<typeof documentsRouteTable> {
  return {
    getCertificateDocument: async ({ params: { id }, query: { format }, req, res }) => {
      if (!isIdOf('cert', id)) throw new NotFoundError('Certificate not found');
      const content = await documents.forCertificate(adminOf(req).org, id, format, adminLivemode(req));
      res.set('Content-Type', DOCUMENT_CONTENT_TYPES[format]);
      res.set('Content-Disposition', `inline; filename="certificate.${format}"`);
      res.set('Cache-Control', 'private, no-cache');
      res.send(content);
    },
  };
}
