import path from 'node:path';
import { loadOpenApiDocument, type OpenApiDocument } from '@platform/service-kit';

/** The service's description, kept as source beside `src/` and served at `GET /openapi.json`. */
export const OPENAPI_FILE = path.join(__dirname, '..', 'openapi.yaml');

let cached: OpenApiDocument | undefined;

/** Parsed once per process. */
export function mobilityOpenApi(): OpenApiDocument {
  cached ??= loadOpenApiDocument(OPENAPI_FILE);
  return cached;
}
