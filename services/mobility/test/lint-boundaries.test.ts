import { execFile } from 'node:child_process';
import path from 'node:path';

/** The repository root, where eslint.config.mjs lives. */
const root = path.resolve(__dirname, '../../..');

/** Runs ESLint's Node API (`new ESLint().lintText`) on `code` placed at `file`; answers the boundary rule's messages. */
async function restrictedImports(code: string, file: string): Promise<string[]> {
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(process.execPath, [path.join(__dirname, 'helpers/lint-text.mjs'), root, path.join(root, file)], (error, out) =>
      error ? reject(error) : resolve(out),
    );
    child.stdin!.end(code);
  });
  const messages = JSON.parse(stdout) as { ruleId: string | null; message: string }[];
  return messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint: feature boundaries', () => {
  it("fails a feature that imports another feature's repository", async () => {
    const code = "import { findDriver } from '../fleet/fleet.repository';\nexport const find = findDriver;\n";
    const errors = await restrictedImports(code, 'services/mobility/src/features/rides/boundary-probe.ts');
    expect(errors).toEqual([expect.stringContaining("Another feature's repository")]);
  });

  it('fails a type-only import of another feature repository, in any service', async () => {
    const code = "import type { RideRow } from '../rides/rides.repository';\nexport type Row = RideRow;\n";
    const errors = await restrictedImports(code, 'services/certificate/src/features/credits/boundary-probe.ts');
    expect(errors).toHaveLength(1);
  });

  it("passes a feature's own repository and another feature's service", async () => {
    const code = [
      "import { findRide } from './rides.repository';",
      "import type { FleetService } from '../fleet/fleet.service';",
      'export type Used = [typeof findRide, FleetService];',
      '',
    ].join('\n');
    expect(await restrictedImports(code, 'services/mobility/src/features/rides/boundary-probe.ts')).toEqual([]);
  });
});
