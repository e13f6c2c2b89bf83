/**
 * `pnpm platform <command>`: the one operator CLI for the platform (docs/operations.md, "Operator CLI"). It works against
 * the running system's databases (the services' own config: DATABASE_URL, JWT_SECRET, … with `pnpm start`'s defaults and
 * this checkout's development secrets from .data/dev-secrets.json;
 * unset addresses taken from `.data/running.json`, and never another server without saying so: see platform/stores.ts)
 * and, for `webhooks listen`, its public API. `status` and `reset` read and remove this checkout's own state.
 * `pnpm platform --help` lists the commands. `pnpm platform` runs the compiled dist/scripts/platform.js.
 */
import { runCli, type CommandSpec } from './platform/cli';
import { certificateSpecs } from './platform/commands/certificate';
import { driversCode, driversRegister } from './platform/commands/drivers';
import { keysCreate } from './platform/commands/keys';
import { orgCreate } from './platform/commands/org';
import { reset } from './platform/commands/reset';
import { status } from './platform/commands/status';
import { tokenAdmin, tokenDriver } from './platform/commands/token';
import { trigger } from './platform/commands/trigger';
import { webhooksListen } from './platform/commands/webhooks-listen';
import { adoptDevSecrets } from './dev-secrets';
import { adoptRecordedStores } from './platform/stores';
import { workspaceRoot } from './running-state';

const commands: CommandSpec[] = [status, reset, orgCreate, keysCreate, driversRegister, driversCode, tokenAdmin, tokenDriver, webhooksListen, trigger, ...certificateSpecs];
/** Commands that never open the services' stores (they look at this checkout's state themselves). */
const WITHOUT_STORES = new Set(['status', 'reset', 'help']);

async function main(args: string[]): Promise<number> {
  const helpOnly = args.length === 0 || WITHOUT_STORES.has(args[0]!) || args.some((arg) => arg === '--help' || arg === '-h');
  if (!helpOnly) {
    // The same development secrets as this checkout's `pnpm start` (.data/dev-secrets.json), so its tokens are accepted there.
    adoptDevSecrets(workspaceRoot(__dirname), process.env);
    const people = !args.some((arg) => arg === '--json' || arg === '--quiet' || arg === '-q');
    const refusal = await adoptRecordedStores(workspaceRoot(__dirname), process.env, (line) => people && process.stderr.write(`${line}\n`));
    if (refusal) {
      process.stderr.write(`${refusal}\n`);
      return 1;
    }
  }
  return runCli(commands, args);
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
