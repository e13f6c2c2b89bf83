/**
 * Writes the gateway's merged OpenAPI description (both services' built descriptions) to dist/openapi.json, or to
 * the path given as the first argument. The gateway serves that file at /openapi.json and /docs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_GATEWAY_OPENAPI_FILE, buildGatewayDescription } from '../src/openapi';

const file = path.resolve(process.argv[2] ?? DEFAULT_GATEWAY_OPENAPI_FILE);
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(buildGatewayDescription(), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), file)}`);
