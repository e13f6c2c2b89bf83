import path from 'node:path';
import type { OpenApiDocument } from '@platform/service-kit/openapi';
import { describeRoutes, loadOverlay, type OverlayDocument } from '@platform/service-kit/route-table';
import { webhookEventContract } from './features/outbox';
import { mobilityRouteTable } from './route-table';

/** The prose of the description (info, tags, summaries, descriptions, examples, security schemes): no shapes. */
export const OVERLAY_FILE = path.join(__dirname, '..', 'openapi.overlay.yaml');

let cached: OpenApiDocument | undefined;

/** The complete description served at `GET /openapi.json`, built once per process from the route table and the overlay. */
export function mobilityOpenApi(): OpenApiDocument {
  cached ??= buildDescription(loadOverlay(OVERLAY_FILE));
  return structuredClone(cached);
}

function buildDescription(overlay: OverlayDocument): OpenApiDocument {
  const { webhooks: webhookProse, ...prose } = overlay;
  const document = describeRoutes(mobilityRouteTable, prose as OverlayDocument);
  // The `webhooks` section is described like an operation: the event sent to a partner's endpoint.
  const webhooks = describeRoutes(webhookEventContract, { openapi: overlay.openapi, info: overlay.info, paths: webhookProse ?? {} });
  const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  for (const [id, schema] of Object.entries((webhooks.components as { schemas: Record<string, unknown> }).schemas)) schemas[id] ??= schema;
  return { ...document, webhooks: webhooks.paths, components: document.components };
}
