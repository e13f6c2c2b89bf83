import express, { Router, type RequestHandler } from 'express';
import { idParam, isJsonType, parseOrThrow, UnsupportedMediaTypeError, adminOf } from '@platform/service-kit';
import { certificatesFromCsv } from './certificates-csv';
import { batchSchema, newCertificateSchema } from './certificates.schema';
import type { CertificatesService } from './certificates.service';
import { listQuery } from './certificates.schema';

const BATCH_BODY_LIMIT = '5mb';

/** The batch upload takes JSON or `text/csv`, up to 5 MB; it is mounted before the app's 100 kB JSON parser. */
export function batchBodyParsers(): RequestHandler[] {
  return [
    (req, _res, next) => {
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (req.method === 'POST' && type !== 'text/csv' && !isJsonType(req)) return next(new UnsupportedMediaTypeError('Content-Type must be application/json or text/csv'));
      next();
    },
    express.text({ type: 'text/csv', limit: BATCH_BODY_LIMIT }),
    express.json({ limit: BATCH_BODY_LIMIT, strict: true }),
  ];
}

/** `/admin/v1/certificates`: issue one or a batch, list, read and revoke, inside the caller's organization. */
export function certificateAdminRoutes(service: CertificatesService): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const input = parseOrThrow(newCertificateSchema, req.body ?? {});
    res.status(201).json(await service.issue(adminOf(req).org, input));
  });
  router.post('/batch', async (req, res) => {
    const body = typeof req.body === 'string' ? certificatesFromCsv(req.body) : (req.body ?? {});
    const { certificates } = parseOrThrow(batchSchema, body);
    const issued = await service.issueBatch(adminOf(req).org, certificates);
    res.status(201).json({ data: issued, has_more: false, next_cursor: null });
  });
  router.get('/', async (req, res) => {
    const query = parseOrThrow(listQuery, req.query);
    res.json(await service.list(adminOf(req).org, { limit: query.limit, cursor: query.cursor ?? query.starting_after }));
  });
  router.get('/:id', async (req, res) => {
    res.json(await service.get(adminOf(req).org, certificateId(req.params.id)));
  });
  router.post('/:id/revoke', async (req, res) => {
    res.json(await service.revoke(adminOf(req).org, certificateId(req.params.id)));
  });
  return router;
}

function certificateId(value: unknown): string {
  return idParam('cert', value, 'Certificate not found');
}
