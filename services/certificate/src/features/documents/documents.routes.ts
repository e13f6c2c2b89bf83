import { Router } from 'express';
import { isIdOf, NotFoundError, parseOrThrow, adminOf } from '@platform/service-kit';
import { DOCUMENT_CONTENT_TYPES, type DocumentsService } from './documents.service';
import { documentQuery } from './documents.schema';


/** `GET /admin/v1/certificates/{id}/document`: the rendered certificate, as PDF (default) or PNG. */
export function documentAdminRoutes(documents: DocumentsService): Router {
  const router = Router();
  router.get('/:id/document', async (req, res) => {
    const id = req.params.id;
    if (!isIdOf('cert', id)) throw new NotFoundError('Certificate not found');
    const { format } = parseOrThrow(documentQuery, req.query);
    const content = await documents.forCertificate(adminOf(req).org, id, format);
    res.set('Content-Type', DOCUMENT_CONTENT_TYPES[format]);
    res.set('Content-Disposition', `inline; filename="certificate.${format}"`);
    res.set('Cache-Control', 'private, no-cache');
    res.send(content);
  });
  return router;
}
