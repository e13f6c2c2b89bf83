import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { negotiateEncoding, PrecompressedBody } from './compression';
import type { OpenApiDocument } from '@platform/api-description';

export { loadGatewayDescription } from './openapi';

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

/**
 * `GET /openapi.json`, `GET /docs` and the renderer bundle, answered by the gateway itself. Each is compressed (brotli,
 * else gzip) when the client accepts it; the compressed forms are made once and kept.
 */
export function docsRoutes(document: OpenApiDocument): Router {
  const router = Router();
  const description = new PrecompressedBody(Buffer.from(JSON.stringify(document)));
  const page = new PrecompressedBody(Buffer.from(DOCS_PAGE));
  const bundle = new PrecompressedBody(readFileSync(rendererBundleFile()));
  router.get('/openapi.json', (req, res, next) => {
    sendStatic(req, res, description, { 'Content-Type': 'application/json; charset=utf-8' }).catch(next);
  });
  router.get('/docs', (req, res, next) => {
    sendStatic(req, res, page, { 'Content-Type': 'text/html; charset=utf-8' }).catch(next);
  });
  router.get(RENDERER_PATH, (req, res, next) => {
    sendStatic(req, res, bundle, { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }).catch(next);
  });
  return router;
}

async function sendStatic(req: Request, res: Response, body: PrecompressedBody, headers: Record<string, string>): Promise<void> {
  const encoding = negotiateEncoding(req.headers['accept-encoding']);
  const bytes = encoding ? await body.encodedAs(encoding) : body.identity;
  res.set({ ...headers, Vary: 'Accept-Encoding', ...(encoding ? { 'Content-Encoding': encoding } : {}) });
  res.send(bytes);
}
