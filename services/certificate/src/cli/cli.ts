/**
 * Operator CLI: give a new organization its first owner key and issue certificates without the dashboard.
 *   pnpm --filter @platform/certificate cli create-key --org acme --org-name "Acme Academy" --user alice [--name "first key"]
 *   pnpm --filter @platform/certificate cli issue --org acme --recipient "Ada Lovelace" --program "Engines" --date 2026-05-01 [--number N] [--expires 2030-01-01]
 *   pnpm --filter @platform/certificate cli credits --org acme
 *   pnpm --filter @platform/certificate cli retention
 *   pnpm --filter @platform/certificate cli accounts create-owner --email ada@example.com --password '…' --org-name "Acme Academy" [--name "Ada Lovelace"]
 *     (or the password in OWNER_PASSWORD, which keeps it out of the process list and shell history)
 */
import { parseArgs } from 'node:util';
import { ApiError, createLogger, loadConfigOrExit, openServiceDatabase, parseOrThrow } from '@platform/service-kit';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../config';
import { migrations } from '../db/migrations';
import { signUpSchema } from '../features/accounts/accounts.schema';
import { newCertificateSchema } from '../features/certificates/certificates.schema';
import { buildServices, type CertificateServices } from '../services';

const USAGE = `usage:
  cli create-key --org <id> [--org-name <name>] --user <id> [--name <key name>]
  cli issue --org <id> --recipient <name> --program <title> --date <YYYY-MM-DD> [--number <n>] [--expires <YYYY-MM-DD>]
  cli credits --org <id>
  cli retention   (deletes payment-webhook bodies older than PAYMENT_WEBHOOK_RETENTION_DAYS, once)
  cli accounts create-owner --email <email> [--password <password> | OWNER_PASSWORD=…] --org-name <name> [--name <person>]`;

type Options = Record<string, string | undefined>;

const commands: Record<string, (services: CertificateServices, o: Options) => Promise<unknown>> = {
  'create-key': async ({ organizations, apiKeys }, o) => {
    await organizations.ensureWithUser({ org: required(o, 'org'), org_name: o['org-name'], sub: required(o, 'user') });
    return apiKeys.create({ organizationId: o.org!, userId: o.user!, name: o.name ?? 'first key' });
  },
  issue: async ({ organizations, certificates }, o) => {
    const input = parseOrThrow(newCertificateSchema, {
      recipient_name: required(o, 'recipient'),
      program_title: required(o, 'program'),
      issue_date: required(o, 'date'),
      ...(o.number ? { certificate_number: o.number } : {}),
      ...(o.expires ? { expires_on: o.expires } : {}),
    });
    const organization = await organizations.find(required(o, 'org'));
    if (!organization) throw new Error(`organization ${o.org} does not exist: create a key for it first`);
    return certificates.issue(o.org!, input);
  },
  credits: async ({ organizations }, o) => organizations.find(required(o, 'org')),
  retention: async ({ runWebhookBodyRetention }) => runWebhookBodyRetention(),
  'accounts create-owner': (services, o) => createFirstOwner(services, o),
};

/**
 * The operator's first owner: a dashboard account (email and password, at least 10 characters) owning a new
 * organization. Exported for the platform CLI; answers the account and organization, or throws (email taken: 409).
 */
export async function createFirstOwner({ accounts }: Pick<CertificateServices, 'accounts'>, o: Options) {
  const input = parseOrThrow(signUpSchema, {
    email: required(o, 'email'),
    password: o.password ?? process.env.OWNER_PASSWORD ?? required(o, 'password'),
    name: o.name ?? required(o, 'email').split('@')[0],
    organization_name: required(o, 'org-name'),
  });
  return accounts.createOwner({ ...input, organization_name: input.organization_name! });
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new Error(`--${name} is required\n${USAGE}`);
  return value;
}

/** The command line, or exit with the usage: 0 for --help, 2 with one line for anything it does not know. */
function parseCommandLine(): { positionals: string[]; values: Options } {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  try {
    const { positionals, values } = parseArgs({
      args,
      allowPositionals: true,
      options: Object.fromEntries(
        ['org', 'org-name', 'user', 'name', 'recipient', 'program', 'date', 'number', 'expires', 'email', 'password'].map((n) => [n, { type: 'string' as const }]),
      ),
    });
    return { positionals, values: values as Options };
  } catch (error) {
    process.stderr.write(`${(error as Error).message.split('.')[0]}\n${USAGE}\n`);
    process.exit(2);
  }
}

async function main() {
  const { positionals, values } = parseCommandLine();
  const command = commands[positionals[0] ?? ''] ?? commands[positionals.slice(0, 2).join(' ')];
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const config = loadConfigOrExit(certificateConfigSchema, 'certificate-cli');
  const db = await openServiceDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, migrations, createLogger('certificate-cli', 'warn'), 2);
  try {
    process.stdout.write(`${JSON.stringify(await command(buildServices({ db, config }), values as Options), null, 2)}\n`);
  } catch (error) {
    const message = error instanceof ApiError ? JSON.stringify(error.toBody()) : (error as Error).message;
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

if (require.main === module) void main();
