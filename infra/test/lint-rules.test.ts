/**
 * Each house-plan rule of eslint.config.mjs fires on a violation and stays quiet on the allowed form: small sources
 * linted as files of the real tree, so imports resolve against the real modules (a cycle closes through them).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { root } from './helpers/manifests';

interface Fixture {
  rule: string;
  filePath: string;
  violation: string;
  allowed: string;
  /** Where the allowed form is linted, when it is allowed by where it lives rather than by what it says (default: filePath). */
  allowedFilePath?: string;
}

/**
 * A function of `lines` lines from its head to its closing brace, each body line a step of one job (a comment and a
 * blank line among them, since both count).
 */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 6 }, (_, i) => `  total += ${i};`);
  return [`export function ${name}(): number {`, '  // Counted like code.', '', '  let total = 0;', ...body, '  return total;', '}', ''].join('\n');
}

const FIXTURES: Record<string, Fixture> = {
  'an import cycle in a service (services.ts calling into app.ts)': {
    rule: 'import-x/no-cycle',
    filePath: 'services/certificate/src/services.ts',
    violation: "import { createApp } from './app';\nexport const app = createApp;\n",
    allowed: "import { certificateConfigSchema } from './config';\nexport const schema = certificateConfigSchema;\n",
  },
  'an import cycle of types in a service (app.ts and services.ts over the Deps type)': {
    rule: 'house/no-type-cycle',
    filePath: 'services/certificate/src/services.ts',
    violation: "import type { CertificateDeps } from './app';\nexport type Deps = CertificateDeps;\n",
    allowed: "import type { CertificateConfig } from './config';\nexport type Deps = CertificateConfig;\n",
  },
  'an import cycle of types in a package (the key cache and the key service)': {
    rule: 'house/no-type-cycle',
    filePath: 'packages/api-keys/src/api-key-cache.ts',
    violation: "import type { ApiKeyService } from './api-keys.service';\nexport type Service = ApiKeyService;\n",
    allowed: "import type { ApiKeyPrincipal } from './api-key-principal';\nexport type Principal = ApiKeyPrincipal;\n",
  },
  "a feature importing another feature's internals instead of its face": {
    rule: 'import-x/no-restricted-paths',
    filePath: 'services/mobility/src/features/rides/lint-fixture.ts',
    violation: "import { createFleetService } from '../fleet/fleet.service';\nexport const fleet = createFleetService;\n",
    allowed: "import { createFleetService } from '../fleet';\nexport const fleet = createFleetService;\n",
  },
  "a certificate feature importing another feature's internals rather than its schema module": {
    rule: 'import-x/no-restricted-paths',
    filePath: 'services/certificate/src/features/accounts/lint-fixture.ts',
    violation: "import { createCertificatesService } from '../certificates/certificates.service';\nexport const certificates = createCertificatesService;\n",
    // A feature's *.schema.ts is a face too: the shapes other features' route tables embed.
    allowed: "import { listQuery } from '../certificates/certificates.schema';\nexport const query = listQuery;\n",
  },
  'a circle between feature folders (rides using event passes, which use rides)': {
    rule: 'house/no-feature-cycle',
    filePath: 'services/mobility/src/features/rides/lint-fixture.ts',
    violation: "import { createEventPassService } from '../event-passes';\nexport const passes = createEventPassService;\n",
    allowed: "import { createFleetService } from '../fleet';\nexport const fleet = createFleetService;\n",
  },
  'a feature importing the composition root': {
    rule: 'import-x/no-restricted-paths',
    filePath: 'services/mobility/src/features/rides/lint-fixture.ts',
    violation: "import type { MobilityDeps } from '../../services';\nexport type Deps = MobilityDeps;\n",
    allowed: "import type { MobilityConfig } from '../../config';\nexport type Config = MobilityConfig;\n",
  },
  'a library importing an application': {
    rule: 'import-x/no-restricted-paths',
    filePath: 'packages/client/scripts/lint-fixture.ts',
    violation: "import { certificateOpenApi } from '@platform/certificate/openapi';\nexport const describe = certificateOpenApi;\n",
    allowed: "import { partnerApiDescription } from '@platform/api-description';\nexport const merge = partnerApiDescription;\n",
  },
  "a tool importing a service's src by path": {
    rule: 'no-restricted-imports',
    filePath: 'scripts/lint-fixture.ts',
    violation: "import { migrations } from '../services/certificate/src/db/migrations';\nexport const all = migrations;\n",
    allowed: "import { migrations } from '@platform/certificate/tooling';\nexport const all = migrations;\n",
  },
  "a tool importing a package's src by a deep package path": {
    rule: 'no-restricted-imports',
    filePath: 'scripts/lint-fixture.ts',
    violation: "import { mobilityOpenApi } from '@platform/mobility/src/openapi';\nexport const describe = mobilityOpenApi;\n",
    allowed: "import { createPartnerClient } from '@platform/client';\nexport const client = createPartnerClient;\n",
  },
  "a bench importing its own service's src": {
    rule: 'no-restricted-imports',
    filePath: 'services/mobility/bench/lint-fixture.ts',
    violation: "import { TIERS } from '../src/platform/pricing';\nexport const tiers = TIERS;\n",
    allowed: "import { TIERS } from '@platform/mobility/tooling';\nexport const tiers = TIERS;\n",
  },
  'a bench importing a script': {
    rule: 'no-restricted-imports',
    filePath: 'services/mobility/bench/lint-fixture.ts',
    violation: "import { machineCpuMs } from '../../../scripts/bench/lib';\nexport const cpu = machineCpuMs;\n",
    allowed: "import { machineCpuMs } from '@platform/bench-kit';\nexport const cpu = machineCpuMs;\n",
  },
  'a function over 120 lines in source code (split by job instead)': {
    rule: 'max-lines-per-function',
    filePath: 'services/mobility/src/features/rides/lint-fixture.ts',
    violation: functionOf('settle', 121),
    allowed: `${functionOf('price', 120)}\n${functionOf('charge', 60)}`,
  },
  'a function over 120 lines in a tool': {
    rule: 'max-lines-per-function',
    filePath: 'scripts/lint-fixture.ts',
    violation: functionOf('main', 121),
    allowed: functionOf('main', 120),
  },
  'a function over 120 lines outside a test (a test may run longer)': {
    rule: 'max-lines-per-function',
    filePath: 'services/mobility/src/features/rides/lint-fixture.ts',
    violation: functionOf('scenario', 200),
    allowedFilePath: 'services/mobility/src/features/rides/lint-fixture.test.ts',
    allowed: functionOf('scenario', 200),
  },
};

type Messages = Array<{ ruleId: string | null; message: string }>;
const cases = Object.entries(FIXTURES);
let violations: Messages[];
let allowed: Messages[];

beforeAll(() => {
  const sources = cases.flatMap(([, fixture]) => [
    { filePath: fixture.filePath, text: fixture.violation },
    { filePath: fixture.allowedFilePath ?? fixture.filePath, text: fixture.allowed },
  ]);
  const output = execFileSync(process.execPath, [path.join(__dirname, 'helpers', 'lint-fixtures.mjs'), root], { input: JSON.stringify(sources), encoding: 'utf8', timeout: 170000 });
  const results = JSON.parse(output) as Messages[];
  violations = results.filter((_, i) => i % 2 === 0);
  allowed = results.filter((_, i) => i % 2 === 1);
}, 180000);

describe.each(cases.map(([name, fixture], index) => ({ name, fixture, index })))('$name', ({ fixture, index }) => {
  it(`is reported by ${fixture.rule}`, () => {
    expect(violations[index]!.map((message) => message.ruleId)).toContain(fixture.rule);
  });

  it('leaves the allowed form without any report', () => {
    expect(allowed[index]).toEqual([]);
  });
});
