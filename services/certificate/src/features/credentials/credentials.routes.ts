import { createHash } from 'node:crypto';
import express, { Router, type RequestHandler, type Response } from 'express';
import { ApiError, matchesIfNoneMatch, NotFoundError, parseOrThrow, ValidationError } from '@platform/service-kit';
import { DOCUMENT_CONTENT_TYPES } from '../documents';
import { CREDENTIAL_PAGE_CSP, credentialPageCsp, credentialPageHtml, notFoundPageHtml } from './credential-page';
import type { CredentialsService } from './credentials.service';
import { PAGE_SCRIPT_PATH } from './page-shell';
import { PAGE_SCRIPT } from './page-script';
import { verifierPageHtml } from './verifier-page';
import { envelope, VC_JWT, VC_LD_JSON, type VerifiableCredentialsService } from './verifiable-credentials.service';
import { verifyRequestSchema } from './credentials.schema';

function sendHtml(res: Response, status: number, html: string, csp = CREDENTIAL_PAGE_CSP) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'Cache-Control': 'no-cache' }).send(html);
}

function sendJwt(res: Response, jwt: string) {
  res.set({ 'Content-Type': VC_JWT, 'Cache-Control': 'no-cache' }).send(jwt);
}

function sendEnveloped(res: Response, jwt: string, filename?: string) {
  res.set({ 'Content-Type': VC_LD_JSON, 'Cache-Control': 'no-cache' });
  if (filename) res.set('Content-Disposition', `attachment; filename="${filename}"`);
  res.send(JSON.stringify(envelope(jwt)));
}

/** Seconds a browser or CDN may keep a public document without asking again. */
export const DOCUMENT_MAX_AGE_S = 60;

/**
 * `/credentials/{code}`: the public credential page, no key needed (the gateway limits it per address). A browser gets
 * HTML; `Accept: application/json` gets the same facts as JSON; `application/vc+jwt` the signed Open Badges credential,
 * `application/vc+ld+json` the same enveloped in JSON. A code that is not found is a 404 in the same form.
 * Also the issuer's DID document and JWKS, the status lists, the verifier page and its script.
 */
export function credentialRoutes(credentials: CredentialsService, verifiable: VerifiableCredentialsService): Router {
  const router = Router();

  router.get('/.well-known/did.json', (_req, res) => {
    res.set({ 'Content-Type': 'application/did+json', 'Cache-Control': 'public, max-age=300' }).send(JSON.stringify(verifiable.didDocument()));
  });
  router.get('/.well-known/jwks.json', (_req, res) => {
    res.set({ 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=300' }).send(JSON.stringify(verifiable.jwks()));
  });

  router.get(PAGE_SCRIPT_PATH, (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300' }).send(PAGE_SCRIPT);
  });
  router.get('/credentials/verify', (_req, res) => sendHtml(res, 200, verifierPageHtml()));

  router.get('/credentials/status/:list', async (req, res) => {
    res.vary('Accept');
    const list = /^[1-9][0-9]{0,8}$/.test(req.params.list) ? Number(req.params.list) : null;
    if (list === null) throw new NotFoundError('Status list not found');
    const jwt = await verifiable.statusListJwt(list);
    if (req.accepts([VC_JWT, VC_LD_JSON, 'json']) === VC_JWT) sendJwt(res, jwt);
    else sendEnveloped(res, jwt);
  });

  router.get('/credentials/:code', async (req, res) => {
    res.vary('Accept');
    const wanted = req.accepts(['html', 'json', VC_LD_JSON, VC_JWT]);
    if (wanted === VC_JWT) return sendJwt(res, await verifiable.credentialJwt(req.params.code));
    if (wanted === VC_LD_JSON) return sendEnveloped(res, await verifiable.credentialJwt(req.params.code));
    const wantsJson = wanted === 'json';
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

  router.get('/credentials/:code/credential.json', async (req, res) => {
    const jwt = await verifiable.credentialJwt(req.params.code);
    sendEnveloped(res, jwt, `credential-${req.params.code.replace(/[^A-Za-z0-9-]/g, '')}.json`);
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


/** `POST /credentials/verify` takes the bare JWT as `application/vc+jwt`; mounted before the app's JSON parser. */
export function credentialVerifyBodyParsers(): RequestHandler[] {
  return [express.text({ type: VC_JWT, limit: '100kb' })];
}

/**
 * `POST /credentials/verify`: checks a credential (`{"credential": <JWT or enveloped credential>}`, the downloaded
 * document as `application/vc+ld+json`, or the JWT as `application/vc+jwt`) or a code (`{"code": …}`). Always 200 with
 * `{status, valid, reason, credential}` for something it could look at; 422 for a body that names neither.
 */
export function credentialVerifyRoutes(verifiable: VerifiableCredentialsService): Router {
  const router = Router();
  router.post('/credentials/verify', async (req, res) => {
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    res.set('Cache-Control', 'no-store');
    if (type === VC_JWT || type === VC_LD_JSON) {
      if (req.body === undefined || (typeof req.body === 'string' && !req.body.trim())) {
        throw new ValidationError([{ path: 'credential', message: 'send the credential in the body' }]);
      }
      return res.json(await verifiable.verifyCredential(req.body));
    }
    const body = parseOrThrow(verifyRequestSchema, req.body ?? {});
    res.json(body.code !== undefined ? await verifiable.verifyCode(body.code) : await verifiable.verifyCredential(body.credential));
  });
  return router;
}
