import { Router, type Response } from 'express';
import { ApiError, NotFoundError } from '@platform/service-kit';
import { DOCUMENT_CONTENT_TYPES } from '../documents/documents.service';
import { CREDENTIAL_PAGE_CSP, credentialPageHtml, notFoundPageHtml } from './credential-page';
import type { CredentialsService } from './credentials.service';

function sendHtml(res: Response, status: number, html: string) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': CREDENTIAL_PAGE_CSP, 'Cache-Control': 'no-cache' }).send(html);
}

/**
 * `/credentials/{code}`: the public credential page, no key needed (the gateway limits it per address). A browser gets
 * HTML; `Accept: application/json` gets the same facts as JSON. A code that is not found is a 404 in the same form.
 */
export function credentialRoutes(credentials: CredentialsService): Router {
  const router = Router();

  router.get('/credentials/:code', async (req, res) => {
    res.vary('Accept');
    const wantsJson = req.accepts(['html', 'json']) === 'json';
    try {
      const credential = await credentials.find(req.params.code);
      if (wantsJson) res.set('Cache-Control', 'no-cache').json(credential);
      else sendHtml(res, 200, credentialPageHtml(credential));
    } catch (error) {
      if (wantsJson || !(error instanceof ApiError) || error.status !== 404) throw error;
      sendHtml(res, 404, notFoundPageHtml());
    }
  });

  router.get('/credentials/:code/document.:format', async (req, res) => {
    const format = req.params.format === 'pdf' || req.params.format === 'png' ? req.params.format : null;
    if (!format) throw new NotFoundError('Certificate not found');
    const content = await credentials.document(req.params.code, format);
    res.set({ 'Content-Type': DOCUMENT_CONTENT_TYPES[format], 'Cache-Control': 'public, max-age=300', 'Content-Disposition': `inline; filename="certificate.${format}"` });
    res.send(content);
  });
  return router;
}
