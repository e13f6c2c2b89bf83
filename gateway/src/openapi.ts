import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { partnerApiDescription, type OpenApiDocument } from '@platform/api-description';

/**
 * Where each service's build writes its description (`dist/openapi.json`, published as `@platform/<service>/openapi.json`):
 * the services of this repository, from `src/` or `dist/` alike. `CERTIFICATE_OPENAPI_FILE` / `MOBILITY_OPENAPI_FILE` override them.
 */
export const DEFAULT_CERTIFICATE_OPENAPI_FILE = path.resolve(__dirname, '..', '..', 'services', 'certificate', 'dist', 'openapi.json');
export const DEFAULT_MOBILITY_OPENAPI_FILE = path.resolve(__dirname, '..', '..', 'services', 'mobility', 'dist', 'openapi.json');

export interface ServiceDescriptionFiles {
  certificate: string;
  mobility: string;
}

/** The merged description, or why there is none yet: a service's description file has not been built. */
export type GatewayDescription = { built: true; document: OpenApiDocument } | { built: false; missing: string[] };

/** One service's built description; a file that is there but is no OpenAPI document is refused (the gateway does not start on it). */
function readServiceDescription(file: string): OpenApiDocument {
  const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  if (typeof document?.openapi !== 'string' || typeof document.paths !== 'object' || document.paths === null) throw new Error(`${file} is not an OpenAPI document`);
  return document;
}

/** The services' built descriptions merged into the partner API description, or the files still missing. */
export function loadGatewayDescription(files: ServiceDescriptionFiles): GatewayDescription {
  const missing = Object.values(files).filter((file) => !existsSync(file));
  if (missing.length > 0) return { built: false, missing };
  return { built: true, document: partnerApiDescription({ certificate: readServiceDescription(files.certificate), mobility: readServiceDescription(files.mobility) }) };
}

/**
 * The description as the docs pages need it: read at start-up, and while a file is missing looked for again on each
 * request, so a gateway started before the services were built serves the description once they are.
 */
export function gatewayDescriptionSource(files: ServiceDescriptionFiles): () => GatewayDescription {
  let current = loadGatewayDescription(files);
  return () => {
    if (!current.built) current = loadGatewayDescription(files);
    return current;
  };
}
