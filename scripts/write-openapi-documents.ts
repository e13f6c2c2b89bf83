/**
 * Writes the descriptions as they are served, for `pnpm lint:openapi` to lint: each service's built description
 * (openapi.yaml plus the routes' zod request schemas) and the gateway's merged one. Into dist/openapi/ unless a folder is given.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildGatewayDescription } from '../gateway/src/openapi';
import { certificateOpenApi } from '../services/certificate/src/openapi';
import { mobilityOpenApi } from '../services/mobility/src/openapi';

const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'dist', 'openapi'));
mkdirSync(dir, { recursive: true });
const documents = { certificate: certificateOpenApi(), mobility: mobilityOpenApi(), gateway: buildGatewayDescription() };
for (const [name, document] of Object.entries(documents)) writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${Object.keys(documents).map((name) => `${name}.json`).join(', ')} to ${path.relative(process.cwd(), dir) || '.'}`);
