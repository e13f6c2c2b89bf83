/**
 * Writes the certificate service's description to dist/openapi.json (or the file given as the first argument), published as
 * `@platform/certificate/openapi.json`: the build runs it on the compiled code; `build:openapi` runs it on the sources
 * (`--conditions=source`), which the tests that start a gateway use. Written to a temporary file and renamed, so a
 * gateway never reads half a description.
 */
const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { certificateOpenApi } = require('@platform/certificate/openapi');

const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'dist', 'openapi.json'));
mkdirSync(path.dirname(file), { recursive: true });
const partial = `${file}.${process.pid}.tmp`;
writeFileSync(partial, `${JSON.stringify(certificateOpenApi(), null, 2)}\n`);
renameSync(partial, file);
