import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ApiError, NotFoundError, ValidationError } from '@platform/service-kit/errors';
import { matchesIfNoneMatch } from '@platform/service-kit/etag';
import type { Handlers } from '@platform/service-kit/operations';
import { DOCUMENT_CONTENT_TYPES } from '../documents';
import { CREDENTIAL_PAGE_CSP, credentialPageCsp, credentialPageHtml, notFoundPageHtml } from './credential-page';
import type { credentialsRouteTable } from './credentials.contract';
import type { VerifyRequest } from './credentials.schema';
import type { CredentialsService } from './credentials.service';
import { PAGE_SCRIPT } from './page-script';
import { verifierPageHtml } from './verifier-page';
import { VC_JWT, VC_LD_JSON, type VerifiableCredentialsService } from './verifiable-credentials.service';

function sendHtml(res: Response, status: number, html: string, csp = CREDENTIAL_PAGE_CSP) {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': csp, 'Cache-Control': 'no-cache' }).send(html);
}

function sendJwt(res: Response, jwt: string) {
  res.set({ 'Content-Type': VC_JWT, 'Cache-Control': 'no-cache' }).send(jwt);
}

/** A credential in its JSON-LD form, secured by its embedded Data Integrity proof. */
function sendWithProof(res: Response, credential: object, filename?: string) {
  res.set({ 'Content-Type': VC_LD_JSON, 'Cache-Control': 'no-cache' });
  if (filename) res.set('Content-Disposition', `attachment; filename="${filename}"`);
  res.send(JSON.stringify(credential));
}

/**
 * `/credentials/{code}/document.{format}` for a format the table does not serve (only `.pdf` and `.png` are
 * operations): the 404 of an unknown certificate (`not_found`), not of an unknown route. Mounted by the app after the table.
 */
export const unknownDocumentFormat: RequestHandler = () => {
  throw new NotFoundError('Certificate not found');
};

/** Seconds a browser or CDN may keep a public document without asking again. */
const DOCUMENT_MAX_AGE_S = 60;
/** A badge never changes for its certificate: a day. */
const BADGE_MAX_AGE_S = 86_400;

/**
 * `/credentials/{code}`: the public credential page, no key needed (the gateway limits it per address). A browser gets
 * HTML; `Accept: application/json` gets the same facts as JSON; `application/vc+jwt` the Open Badges credential signed
 * as a JWT, `application/vc+ld+json` the same credential in JSON-LD with an embedded Data Integrity proof. A code that is not found is a 404 in the same form. Also the
 * issuer's DID document and JWKS, the status lists, the verifier page and its script, and `POST /credentials/verify`.
 * Pages, documents, scripts and credentials in their own media types are written here; JSON answers are returned.
 */
export function credentialsHandlers(credentials: CredentialsService, verifiable: VerifiableCredentialsService): Handlers<typeof credentialsRouteTable> {
  /** The certificate as PDF or PNG: 202 while it renders, then short-lived and revalidated by ETag. */
  const document = async (code: string, format: 'pdf' | 'png', req: Request, res: Response) => {
    const answer = await credentials.document(code, format);
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
  };

  return {
    getIssuerDidDocument: ({ res }) => {
      res.set({ 'Content-Type': 'application/did+json', 'Cache-Control': 'public, max-age=300' }).send(JSON.stringify(verifiable.didDocument()));
    },
    getIssuerJwks: ({ res }) => {
      res.set({ 'Content-Type': 'application/jwk-set+json', 'Cache-Control': 'public, max-age=300' }).send(JSON.stringify(verifiable.jwks()));
    },
    getCredentialPageScript: ({ res }) => {
      res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300' }).send(PAGE_SCRIPT);
    },
    getCredentialVerifierPage: ({ res }) => sendHtml(res, 200, verifierPageHtml()),
    getCredentialStatusList: async ({ params, req, res }) => {
      res.vary('Accept');
      const list = /^[1-9][0-9]{0,8}$/.test(params.list) ? Number(params.list) : null;
      if (list === null) throw new NotFoundError('Status list not found');
      if (req.accepts([VC_JWT, VC_LD_JSON, 'json']) === VC_JWT) sendJwt(res, await verifiable.statusListJwt(list));
      else sendWithProof(res, await verifiable.statusListWithProof(list));
    },
    getPublicCredential: async ({ params: { code }, req, res }) => {
      res.vary('Accept');
      const wanted = req.accepts(['html', 'json', VC_LD_JSON, VC_JWT]);
      if (wanted === VC_JWT) return sendJwt(res, await verifiable.credentialJwt(code));
      if (wanted === VC_LD_JSON) return sendWithProof(res, await verifiable.credentialWithProof(code));
      const wantsJson = wanted === 'json';
      try {
        const credential = await credentials.find(code);
        if (wantsJson) return { status: 200, body: credential, headers: { 'Cache-Control': 'no-cache' } };
        const branding = await credentials.branding(code);
        sendHtml(res, 200, credentialPageHtml(credential, branding), credentialPageCsp(branding));
      } catch (error) {
        if (wantsJson || !(error instanceof ApiError) || error.status !== 404) throw error;
        sendHtml(res, 404, notFoundPageHtml());
      }
    },
    getVerifiableCredential: async ({ params: { code }, res }) => {
      sendWithProof(res, await verifiable.credentialWithProof(code), `credential-${code.replace(/[^A-Za-z0-9-]/g, '')}.json`);
    },
    // The issuer's logo on the page: same origin (the CSP allows images from nowhere else), cached like the documents.
    getPublicCredentialLogo: async ({ params: { code }, res }) => {
      const logo = await credentials.logo(code);
      res.set({ 'Content-Type': logo.contentType, 'Cache-Control': `public, max-age=${DOCUMENT_MAX_AGE_S}`, 'X-Content-Type-Options': 'nosniff' }).send(logo.content);
    },
    // The badge (the credential's achievement image): the same for the certificate's whole life, so cached for a day.
    getPublicCredentialBadge: async ({ params: { code }, req, res }) => {
      const png = await credentials.badge(code);
      const etag = `"${createHash('sha256').update(png).digest('base64url').slice(0, 32)}"`;
      res.set({ ETag: etag, 'Cache-Control': `public, max-age=${BADGE_MAX_AGE_S}`, 'X-Content-Type-Options': 'nosniff' });
      if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) {
        res.status(304).end();
        return;
      }
      res.set('Content-Type', 'image/png').send(png);
    },
    getPublicCredentialPdf: ({ params: { code }, req, res }) => document(code, 'pdf', req, res),
    getPublicCredentialPng: ({ params: { code }, req, res }) => document(code, 'png', req, res),
    /**
     * Checks a credential (`{"credential": <credential with its proof, JWT, or enveloped JWT>}`, the downloaded
     * document as `application/vc+ld+json`, or the JWT as `application/vc+jwt`) or a code (`{"code": …}`). Always 200 with
     * `{status, valid, reason, credential}` for something it could look at; 422 for a body that names neither.
     */
    verifyCredential: async ({ body, req }) => {
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const headers = { 'Cache-Control': 'no-store' };
      if (type === VC_JWT || type === VC_LD_JSON) {
        if (body === undefined || (typeof body === 'string' && !body.trim())) throw new ValidationError([{ path: 'credential', message: 'send the credential in the body' }]);
        return { status: 200, body: await verifiable.verifyCredential(body), headers };
      }
      const request = body as VerifyRequest;
      return { status: 200, body: request.code !== undefined ? await verifiable.verifyCode(request.code) : await verifiable.verifyCredential(request.credential), headers };
    },
  };
}
