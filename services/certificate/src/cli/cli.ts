/**
 * The certificate service's own operator CLI (also reachable as `pnpm platform certificate …`):
 *   pnpm --filter @platform/certificate cli keys create --org acme --org-name "Acme Academy" --user alice [--name "first key"] [--test]
 *     (create-key is the same; --test makes a test-mode key, ck_test_…)
 *   pnpm --filter @platform/certificate cli issue --org acme --recipient "Ada Lovelace" --program "Engines" --date 2026-05-01 [--number N] [--expires 2030-01-01]
 *   pnpm --filter @platform/certificate cli credits --org acme
 *   pnpm --filter @platform/certificate cli retention
 *   pnpm --filter @platform/certificate cli accounts create-owner --email ada@example.com --password '…' --org-name "Acme Academy" [--name "Ada Lovelace"]
 *     (or the password in OWNER_PASSWORD, which keeps it out of the process list and shell history)
 *   pnpm --filter @platform/certificate cli organizations verify org_…
 *   pnpm --filter @platform/certificate cli organizations verify-domain org_… academy.example.org
 */
import { parseArgs } from 'node:util';
import { ApiError } from '@platform/service-kit/errors';
import { CERTIFICATE_FLAGS, CERTIFICATE_SWITCHES, CERTIFICATE_USAGE, certificateCommands, loadCertificateConfig, MissingFlagError, openCertificateOperator, type Options } from './commands';

export { createFirstOwner } from './commands';

/** The command line, or exit with the usage: 0 for --help, 2 with one line for anything it does not know. */
function parseCommandLine(): { positionals: string[]; values: Options } {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${CERTIFICATE_USAGE}\n`);
    process.exit(0);
  }
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...Object.fromEntries(CERTIFICATE_FLAGS.map((n) => [n, { type: 'string' as const }])),
        ...Object.fromEntries(CERTIFICATE_SWITCHES.map((n) => [n, { type: 'boolean' as const }])),
      },
    });
    // A switch given is handed over as 'true' (the commands read every option as text).
    return { positionals, values: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, value === true ? 'true' : value])) as Options };
  } catch (error) {
    process.stderr.write(`${(error as Error).message.split('.')[0]}\n${CERTIFICATE_USAGE}\n`);
    process.exit(2);
  }
}

async function main() {
  const { positionals, values } = parseCommandLine();
  const command = certificateCommands[positionals[0] ?? ''] ?? certificateCommands[positionals.slice(0, 2).join(' ')];
  if (!command) {
    process.stderr.write(`${CERTIFICATE_USAGE}\n`);
    process.exit(2);
  }
  const operator = await openCertificateOperator(loadCertificateConfig('certificate-cli'));
  try {
    // A two-word command's third word (`organizations verify <org>`) is its argument, a fourth its second one.
    process.stdout.write(`${JSON.stringify(await command(operator.services, { ...values, argument: positionals[2], argument2: positionals[3] }), null, 2)}\n`);
  } catch (error) {
    const message = error instanceof ApiError ? JSON.stringify(error.toBody()) : (error as Error).message;
    process.stderr.write(error instanceof MissingFlagError ? `${message}\n${CERTIFICATE_USAGE}\n` : `${message}\n`);
    process.exitCode = error instanceof MissingFlagError ? 2 : 1;
  } finally {
    await operator.close();
  }
}

if (require.main === module) void main();
