import path from 'node:path';
import type { OpenApiDocument } from '@platform/service-kit/openapi';
import { describeRoutes, loadOverlay } from '@platform/service-kit/route-table';
import { paymentSchema } from './features/payments/payments.contract';
import { certificateRouteTable } from './route-table';

/** The prose of the description (info, tags, summaries, descriptions, examples), kept as source beside `src/`. */
export const OPENAPI_OVERLAY_FILE = path.join(__dirname, '..', 'openapi.overlay.yaml');

let cached: OpenApiDocument | undefined;

/** The complete description served at `GET /openapi.json`: shapes from the route table, prose from the overlay; built once per process. */
export function certificateOpenApi(): OpenApiDocument {
  cached ??= describeRoutes(certificateRouteTable, loadOverlay(OPENAPI_OVERLAY_FILE), { schemas: [paymentSchema] });
  return structuredClone(cached);
}
