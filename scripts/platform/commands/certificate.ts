/** The certificate service's own operator commands (services/certificate/src/cli), reachable from the platform CLI. */
import { UsageError, type CommandSpec } from '../cli';
import { certificateCli } from '../service-modules';
import { withCertificate } from '../services';

const COMMANDS: { name: string; summary: string; synopsis: string }[] = [
  { name: 'issue', summary: 'issue a certificate (one credit)', synopsis: '--org <id> --recipient <name> --program <title> --date <YYYY-MM-DD> [--number <n>] [--expires <YYYY-MM-DD>]' },
  { name: 'credits', summary: "show an organization's credit balance", synopsis: '--org <id>' },
  { name: 'retention', summary: 'delete payment-webhook bodies older than PAYMENT_WEBHOOK_RETENTION_DAYS, once', synopsis: '' },
];

export const certificateSpecs: CommandSpec[] = COMMANDS.map(({ name, summary, synopsis }) => ({
  name: `certificate ${name}`,
  summary,
  synopsis,
  details: ['Prints the result as JSON (the same as `node services/certificate/dist/cli/cli.js ' + name + '`).'],
  flags: () => Object.fromEntries(certificateCli().CERTIFICATE_FLAGS.map((flag) => [flag, 'string' as const])),
  async run({ flags, out }) {
    const { certificateCommands, MissingFlagError } = certificateCli();
    const result = await withCertificate(async ({ services }) => {
      try {
        return await certificateCommands[name]!(services, flags as Record<string, string | undefined>);
      } catch (error) {
        if (error instanceof MissingFlagError) throw new UsageError(error.message);
        throw error;
      }
    });
    out.result((result ?? null) as object, [JSON.stringify(result ?? null, null, 2)]);
  },
}));
