/**
 * Writes the mobility service's description to dist/openapi.json (or the file given as an argument), published as
 * `@platform/mobility/openapi.json`. The build runs it on the compiled code (dist/openapi.js), under tsx so that it also
 * runs where NODE_OPTIONS asks for the `source` condition (tests that start `pnpm start`). With `--from-source`
 * (`build:openapi`) it takes the sources through the package's `source` export, as the gateway's tests and the
 * client's generator do. Written to a temporary file and renamed, so a gateway never reads half a description.
 */
const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const { mobilityOpenApi } = args.includes('--from-source') ? require('@platform/mobility/openapi') : require('../dist/openapi.js');
const file = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? path.join(__dirname, '..', 'dist', 'openapi.json'));
mkdirSync(path.dirname(file), { recursive: true });
const partial = `${file}.${process.pid}.tmp`;
writeFileSync(partial, `${JSON.stringify(mobilityOpenApi(), null, 2)}\n`);
renameSync(partial, file);
