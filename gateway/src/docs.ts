import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { negotiateEncoding, PrecompressedBody } from './compression';
import type { GatewayDescription } from './openapi';

export const RENDERER_PATH = '/docs/assets/api-reference.js';

/** The renderer's self-contained browser bundle, served from node_modules: the docs need no CDN. */
export function rendererBundleFile(): string {
  return path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

// Nothing on the page leaves the gateway: fonts come from the system (the default ones load from a CDN), no telemetry,
// no hosted agent or MCP server, no button that opens Scalar's hosted client.
const RENDERER_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Partner API reference</title>
    <style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
  </head>
  <body>
    <noscript>The API reference needs JavaScript; the raw description is at <a href="/openapi.json">/openapi.json</a>.</noscript>
    <script id="api-reference" data-url="/openapi.json" data-configuration='${JSON.stringify(RENDERER_CONFIGURATION)}'></script>
    <script src="${RENDERER_PATH}"></script>
  </body>
</html>
`;

/** A CSP source for an inline element's exact text. */
function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/**
 * The docs' Content-Security-Policy (the dashboard's refresh cookie lives on this origin): scripts only from the
 * gateway itself (the bundle) plus the page's one inline script element by hash (the renderer's empty configuration
 * `<script>` data block): no other inline script or `eval` runs. Styles may be inline: the renderer writes `<style>`
 * elements and `style` attributes at run time (a style cannot run code). Images and fonts may be `data:` URIs bundled
 * in the renderer; nothing may be fetched from another origin, framed, or posted anywhere.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  `script-src 'self' ${hashSource('')}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The answer to `/openapi.json` and `/docs` while a service's description file has not been built. */
export const DESCRIPTION_NOT_BUILT = {
  error: "The API description has not been built: run pnpm build (or set CERTIFICATE_OPENAPI_FILE and MOBILITY_OPENAPI_FILE)",
  code: 'description_not_built',
} as const;

/** Codes of the gateway's own pages that the services' `ErrorCode` enum does not list: a description cannot describe its own absence. */
export const OWN_PAGE_ERROR_CODES: readonly string[] = [DESCRIPTION_NOT_BUILT.code];

/**
 * `GET /openapi.json`, `GET /docs` and the renderer bundle, answered by the gateway itself. Each is compressed (brotli,
 * else gzip) when the client accepts it; the compressed forms are made once and kept. Until the services' descriptions
 * are built, `/openapi.json` and `/docs` answer 503 `description_not_built`.
 */
export function docsRoutes(description: () => GatewayDescription): Router {
  const router = Router();
  const page = new PrecompressedBody(Buffer.from(DOCS_PAGE));
  const bundle = new PrecompressedBody(readFileSync(rendererBundleFile()));
  let served: { document: object; body: PrecompressedBody } | undefined;
  /** The description's compressed body, made once per document; undefined (and a 503 sent) while it is not built. */
  const builtDescription = (res: Response): PrecompressedBody | undefined => {
    const current = description();
    if (!current.built) {
      res.status(503).json(DESCRIPTION_NOT_BUILT);
      return undefined;
    }
    if (served?.document !== current.document) served = { document: current.document, body: new PrecompressedBody(Buffer.from(JSON.stringify(current.document))) };
    return served.body;
  };
  router.get('/openapi.json', (req, res, next) => {
    const body = builtDescription(res);
    if (body) sendStatic(req, res, body, { 'Content-Type': 'application/json; charset=utf-8' }).catch(next);
  });
  router.get('/docs', (req, res, next) => {
    if (builtDescription(res)) sendStatic(req, res, page, { 'Content-Type': 'text/html; charset=utf-8' }).catch(next);
  });
  router.get(RENDERER_PATH, (req, res, next) => {
    sendStatic(req, res, bundle, { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }).catch(next);
  });
  return router;
}

async function sendStatic(req: Request, res: Response, body: PrecompressedBody, headers: Record<string, string>): Promise<void> {
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  const bytes = encoding ? await body.encodedAs(encoding) : body.identity;
  res.set({ ...headers, 'Content-Security-Policy': DOCS_CSP, Vary: 'Accept-Encoding', ...(encoding ? { 'Content-Encoding': encoding } : {}) });
  res.send(bytes);
}
