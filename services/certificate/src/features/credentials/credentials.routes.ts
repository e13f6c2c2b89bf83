import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import { ApiError, matchesIfNoneMatch, NotFoundError } from '@platform/service-kit';
import { DOCUMENT_CONTENT_TYPES } from '../documents/documents.service';
import { CREDENTIAL_PAGE_CSP, credentialPageCsp, credentialPageHtml, notFoundPageHtml } from './credential-page';
import type { CredentialsService } from './credentials.service';

function sendHtml(res: Response, status: number, html: string, csp = CREDENTIAL_PAGE_CSP) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'Cache-Control': 'no-cache' }).send(html);
}

/** Seconds a browser or CDN may keep a public document without asking again. */
export const DOCUMENT_MAX_AGE_S = 60;

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
      else {
        const branding = await credentials.branding(req.params.code);
        sendHtml(res, 200, credentialPageHtml(credential, branding), credentialPageCsp(branding));
      }
    } catch (error) {
      if (wantsJson || !(error instanceof ApiError) || error.status !== 404) throw error;
      sendHtml(res, 404, notFoundPageHtml());
    }
  });

  // The issuer's logo on the page: same origin (the CSP allows images from nowhere else), cached like the documents.
  router.get('/credentials/:code/logo', async (req, res) => {
    const logo = await credentials.logo(req.params.code);
    res.set({ 'Content-Type': logo.contentType, 'Cache-Control': `public, max-age=${DOCUMENT_MAX_AGE_S}`, 'X-Content-Type-Options': 'nosniff' }).send(logo.content);
  });

  router.get('/credentials/:code/document.:format', async (req, res) => {
    const format = req.params.format === 'pdf' || req.params.format === 'png' ? req.params.format : null;
    if (!format) throw new NotFoundError('Certificate not found');
    const answer = await credentials.document(req.params.code, format);
    if (!answer.ready) {
      // Not rendered yet (the render goes on in the pool): the client asks again; nothing here may be cached.
      res.status(202).set({ 'Retry-After': String(answer.retryAfterSeconds), 'Cache-Control': 'no-store' });
      res.json({ status: 'rendering', retry_after: answer.retryAfterSeconds });
      return;
    }
    // Short-lived and revalidated by ETag: a revoke (a new document, with a band) reaches caches within a minute.
    const etag = `"${createHash('sha256').update(answer.content).digest('base64url').slice(0, 32)}"`;
    res.set({ ETag: etag, 'Cache-Control': `public, max-age=${DOCUMENT_MAX_AGE_S}`, 'Content-Disposition': `inline; filename="certificate.${format}"` });
    if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    res.set('Content-Type', DOCUMENT_CONTENT_TYPES[format]).send(answer.content);
  });
  return router;
}
