/**
 * `pnpm platform <command>`: the one operator CLI for the platform (docs/operations.md, "Operator CLI"). It works against
 * the running system's databases (the services' own config: DATABASE_URL, JWT_SECRET, … with `pnpm start`'s defaults;
 * unset ones taken from the running `pnpm start`'s .data/running.json, see running-state.ts) and, for `webhooks listen`,
 * its public API. `pnpm platform --help` lists the commands. `pnpm platform` runs the compiled dist/scripts/platform.js.
 */
import { runCli, type CommandSpec } from './platform/cli';
import { certificateSpecs } from './platform/commands/certificate';
import { driversCode, driversRegister } from './platform/commands/drivers';
import { keysCreate } from './platform/commands/keys';
import { orgCreate } from './platform/commands/org';
import { tokenAdmin, tokenDriver } from './platform/commands/token';
import { trigger } from './platform/commands/trigger';
import { webhooksListen } from './platform/commands/webhooks-listen';
import { adoptRunningState, workspaceRoot } from './running-state';

const commands: CommandSpec[] = [orgCreate, keysCreate, driversRegister, driversCode, tokenAdmin, tokenDriver, webhooksListen, trigger, ...certificateSpecs];

adoptRunningState(workspaceRoot(__dirname));
void runCli(commands, process.argv.slice(2)).then((code) => process.exit(code));
