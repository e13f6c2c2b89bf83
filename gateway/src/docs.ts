import path from 'node:path';
import { Router } from 'express';
import { loadOpenApiDocument, type OpenApiDocument } from '@platform/service-kit/openapi';
import { addGatewayResponses, mergeDescriptions } from './openapi';

export const RENDERER_PATH = '/docs/assets/api-reference.js';

/** The renderer's self-contained browser bundle, served from node_modules: the docs need no CDN. */
export function rendererBundleFile(): string {
  return path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
}

/** The merged description of everything the gateway exposes, from the services' YAML files. */
export function loadGatewayDescription(files: { certificate: string; mobility: string }): OpenApiDocument {
  const merged = mergeDescriptions(
    [
      { upstream: 'certificate', document: loadOpenApiDocument(files.certificate) },
      { upstream: 'mobility', document: loadOpenApiDocument(files.mobility) },
    ],
    {
      title: 'Partner API',
      version: '1.0.0',
      description:
        'Everything partners, payment gateways and driver apps reach through the gateway: certificate verification and credits, ' +
        'payment webhooks, fare estimates, rides, deliveries, outgoing webhooks and the driver app. ' +
        'Errors are `{"error", "code"}` (422 adds `details`); lists are `{"data", "has_more", "next_cursor"}`.',
    },
  );
  return addGatewayResponses(merged);
}

// Fonts come from the system (the default ones load from a CDN); no telemetry, no hosted agent.
const RENDERER_CONFIGURATION = {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
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

/** `GET /openapi.json`, `GET /docs` and the renderer bundle, answered by the gateway itself. */
export function docsRoutes(document: OpenApiDocument): Router {
  const router = Router();
  const json = JSON.stringify(document);
  const bundle = rendererBundleFile();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get(RENDERER_PATH, (_req, res, next) => {
    res.sendFile(bundle, { headers: { 'Content-Type': 'application/javascript; charset=utf-8' }, maxAge: '1h', dotfiles: 'allow' /* pnpm keeps it under node_modules/.pnpm */ }, (error) => error && next(error));
  });
  return router;
}
