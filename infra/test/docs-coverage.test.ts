/**
 * The reference pages keep up with the code: every variable a process's config schema reads has a row in
 * docs/configuration.md, every error code of the shared `ErrorCode` enum (and of the gateway's own pages) a row in docs/api.md, and every drill
 * `pnpm drill` runs a row in docs/drills.md (and no row names something that no longer exists).
 */
import { gatewayConfigSchema } from '../../gateway/src/config';
import { OWN_PAGE_ERROR_CODES } from '../../gateway/src/docs';
import { certificateConfigSchema } from '../../services/certificate/src/config';
import { mobilityConfigSchema } from '../../services/mobility/src/config';
import { variablesOf } from './helpers/config-variables';
import { drillNames, errorCodesOf, firstCellCodes, readDoc, sectionOf } from './helpers/docs-tables';

const schemas = [
  { process: 'gateway', schema: gatewayConfigSchema },
  { process: 'certificate', schema: certificateConfigSchema },
  { process: 'mobility (API, worker, migrations)', schema: mobilityConfigSchema },
];

/** Variable names: upper case, digits and underscores (a row's first cell may also hold `pnpm start --replicas <n>`). */
const VARIABLE = /^[A-Z][A-Z0-9_]*$/;

describe('docs/configuration.md', () => {
  const documented = new Set(firstCellCodes(sectionOf(readDoc('docs/configuration.md'), 'Environment variables')).filter((name) => VARIABLE.test(name)));

  it.each(schemas)('has a row in the environment table for every variable the $process schema reads', ({ schema }) => {
    expect(variablesOf(schema).filter((name) => !documented.has(name))).toEqual([]);
  });
});

describe('docs/api.md', () => {
  const documented = new Set(firstCellCodes(sectionOf(readDoc('docs/api.md'), 'Error codes')));
  const enumCodes = errorCodesOf('certificate');
  const codes = [...enumCodes, ...OWN_PAGE_ERROR_CODES];

  it('describes the same ErrorCode enum in both services', () => {
    expect([...errorCodesOf('mobility')].sort()).toEqual([...enumCodes].sort());
  });

  it('has a row in the error-code table for every code of the ErrorCode enum', () => {
    expect(codes.filter((code) => !documented.has(code))).toEqual([]);
  });

  it('lists no code the enum does not have', () => {
    expect([...documented].filter((code) => !codes.includes(code))).toEqual([]);
  });
});

describe('docs/drills.md', () => {
  const documented = new Set(firstCellCodes(sectionOf(readDoc('docs/drills.md'), '`pnpm drill`')));
  const drills = drillNames();

  it('reads the drill list of scripts/drill.ts', () => {
    expect(drills).toEqual(expect.arrayContaining(['payment-verify-timeout', 'slow-body']));
  });

  it('has a row in the `pnpm drill` table for every drill it runs', () => {
    expect(drills.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists no drill that scripts/drill.ts does not run', () => {
    expect([...documented].filter((name) => !drills.includes(name))).toEqual([]);
  });
});
