import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { partnerApiDescription, type OpenApiDocument } from '@platform/api-description';

/** The gateway package's folder, from `src/` under tsx or from the compiled output alike. */
function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
}

/** Written by `pnpm --filter @platform/gateway build` (scripts/build-openapi.ts); `GATEWAY_OPENAPI_FILE` overrides it. */
export const DEFAULT_GATEWAY_OPENAPI_FILE = path.join(packageRoot(), 'dist', 'openapi.json');

/**
 * The merged description from the services' sources: each service's openapi.yaml plus its zod request schemas.
 * Only the build step and a gateway started without a build (tests, development) call it; production reads the built file.
 */
export function buildGatewayDescription(): OpenApiDocument {
  // Required by path, not as packages: the services' own tests depend on the gateway, and nothing at run time needs them.
  const services = path.join(packageRoot(), '..', 'services');
  const { certificateOpenApi } = require(path.join(services, 'certificate', 'src', 'openapi')) as { certificateOpenApi(): OpenApiDocument };
  const { mobilityOpenApi } = require(path.join(services, 'mobility', 'src', 'openapi')) as { mobilityOpenApi(): OpenApiDocument };
  return partnerApiDescription({ certificate: certificateOpenApi(), mobility: mobilityOpenApi() });
}

/** The built file when it exists (a broken one stops the gateway at start-up), else the description built from source. */
export function loadGatewayDescription(file: string = DEFAULT_GATEWAY_OPENAPI_FILE): OpenApiDocument {
  if (!existsSync(file)) return buildGatewayDescription();
  const document = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  if (typeof document?.openapi !== 'string' || typeof document.paths !== 'object') throw new Error(`${file} is not an OpenAPI document`);
  return document;
}
