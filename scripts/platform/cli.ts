/**
 * The small framework under `pnpm platform`: each command declares its flags, positionals and usage; this parses the
 * command line strictly (an unknown command or flag, or a missing required one, is a usage error: usage on stderr,
 * exit 2), runs the command, and maps its failures to exit 1 with one line on stderr. Output is for people by default;
 * `--json` prints one JSON object on stdout instead; `--quiet` (commands that make one thing) prints only its id or secret,
 * for `X=$(pnpm -s platform … --quiet)` in scripts.
 */
import { parseArgs } from 'node:util';
import { ValidationError } from '@platform/service-kit/errors';

export type FlagType = 'string' | 'boolean';

export interface CommandSpec {
  /** `org create`, `keys create`, … */
  name: string;
  summary: string;
  /** The synopsis after the command name, e.g. `--name <n> --owner-email <e> [--owner-name <n>]`. */
  synopsis: string;
  /** More lines for `<command> --help`. */
  details?: string[] | (() => string[]);
  /** A function when working them out loads a service (kept for when the command runs). */
  flags: Record<string, FlagType> | (() => Record<string, FlagType>);
  /** What `--quiet` prints instead of the usual lines (e.g. `the organization id`); commands without it have no --quiet. */
  quiet?: string;
  required?: string[];
  /** Names of the positional arguments, all required. */
  positionals?: string[];
  run(input: CommandInput): Promise<void>;
}

export interface CommandInput {
  flags: Record<string, string | boolean | undefined>;
  positionals: string[];
  out: Output;
}

/**
 * Wrong use of the command line: the command's usage goes to stderr and the exit code is 2. `{ usage: false }` when the
 * message alone says what would be right (e.g. lists the values allowed): then it is the only line.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly options: { usage?: boolean } = {},
  ) {
    super(message);
  }
}
/** The command ran and could not do its job (unknown organization, service refused): one line on stderr, exit 1. */
export class CommandError extends Error {}

export interface Output {
  json: boolean;
  /**
   * Prints the command's result once: the object as one JSON line with --json, `quiet` alone with --quiet (the command's
   * `quiet` description says what it is), else the human lines.
   */
  result(value: object, human: string[], quiet?: string): void;
  /** A progress or event line (stdout; with --json, a JSON line of `value`). */
  line(value: object, human: string): void;
  /** A note for people only (stderr, so it never mixes with --json output). */
  note(text: string): void;
}

export type OutputMode = 'human' | 'json' | 'quiet';

export function createOutput(mode: OutputMode): Output {
  const json = mode === 'json';
  return {
    json,
    result(value, human, quiet) {
      const text = json ? JSON.stringify(value) : mode === 'quiet' && quiet !== undefined ? quiet : human.join('\n');
      process.stdout.write(`${text}\n`);
    },
    line(value, human) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
    },
    note(text) {
      if (mode === 'human') process.stderr.write(`${text}\n`);
    },
  };
}

const GLOBAL_FLAGS = { json: { type: 'boolean' as const }, help: { type: 'boolean' as const, short: 'h' } };
const QUIET_FLAG = { quiet: { type: 'boolean' as const, short: 'q' } };

export function commandUsage(spec: CommandSpec): string {
  const output = spec.quiet ? '[--json | --quiet]' : '[--json]';
  const lines = [`usage: pnpm platform ${spec.name} ${spec.synopsis} ${output}`.replace(/\s+/g, ' '), '', `  ${spec.summary}`];
  const details = typeof spec.details === 'function' ? spec.details() : spec.details;
  if (details?.length) lines.push('', ...details.map((line) => `  ${line}`));
  if (spec.quiet) lines.push('', `  --quiet (-q) prints only ${spec.quiet}, for scripts: X=$(pnpm -s platform ${spec.name} … --quiet).`);
  return lines.join('\n');
}

export function overallUsage(commands: CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'usage: pnpm platform <command> [flags] [--json]',
    '',
    'Operator commands for a running platform (the same DATABASE_URL, JWT_SECRET, … as `pnpm start`; see docs/operations.md, "Operator CLI").',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    '`pnpm platform <command> --help` describes one command. --json prints one JSON object on stdout; --quiet (-q),',
    'on commands that make one thing, only its id or secret.',
    'Exit codes: 0 done, 1 the command failed (message on stderr), 2 wrong usage (usage on stderr).',
  ].join('\n');
}

/** Finds the command named by the first one or two words of `args`. */
function findCommand(commands: CommandSpec[], args: string[]): { spec: CommandSpec; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const name = args.slice(0, words).join(' ');
    const spec = commands.find((c) => c.name === name);
    if (spec && args.slice(0, words).every((word) => !word.startsWith('-'))) return { spec, rest: args.slice(words) };
  }
  return undefined;
}

/** Runs the command line; resolves with the exit code (a long-running command resolves when it is done). */
export async function runCli(commands: CommandSpec[], args: string[]): Promise<number> {
  const found = findCommand(commands, args);
  if (!found) {
    if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
      process.stdout.write(`${overallUsage(commands)}\n`);
      return 0;
    }
    if (args.length === 0) {
      process.stderr.write(`${overallUsage(commands)}\n`);
      return 2;
    }
    const words = args.filter((a) => !a.startsWith('-')).slice(0, 2).join(' ');
    process.stderr.write(`unknown command: ${words || args[0]}\n\n${overallUsage(commands)}\n`);
    return 2;
  }
  const { spec, rest } = found;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: { ...GLOBAL_FLAGS, ...(spec.quiet ? QUIET_FLAG : {}), ...Object.fromEntries(Object.entries(typeof spec.flags === 'function' ? spec.flags() : spec.flags).map(([name, type]) => [name, { type }])) },
    });
  } catch (error) {
    return usageFailure(spec, (error as Error).message.split('. ')[0]!);
  }
  const flags = parsed.values as Record<string, string | boolean | undefined>;
  if (flags.help) {
    process.stdout.write(`${commandUsage(spec)}\n`);
    return 0;
  }
  const expected = spec.positionals ?? [];
  if (parsed.positionals.length < expected.length) return usageFailure(spec, `missing <${expected[parsed.positionals.length]}>`);
  if (parsed.positionals.length > expected.length) return usageFailure(spec, `unexpected argument: ${parsed.positionals[expected.length]}`);
  if (flags.json && flags.quiet) return usageFailure(spec, '--json and --quiet exclude each other: pick one');
  const missing = (spec.required ?? []).find((name) => flags[name] === undefined || flags[name] === '');
  if (missing) return usageFailure(spec, `--${missing} is required`);

  try {
    await spec.run({ flags, positionals: parsed.positionals, out: createOutput(flags.json ? 'json' : flags.quiet ? 'quiet' : 'human') });
    return 0;
  } catch (error) {
    if (error instanceof UsageError && error.options.usage === false) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    if (error instanceof UsageError) return usageFailure(spec, error.message);
    if (error instanceof ValidationError) return usageFailure(spec, describeValidation(error));
    process.stderr.write(`${error instanceof CommandError ? error.message : `error: ${(error as Error).message}`}\n`);
    return 1;
  }
}

function usageFailure(spec: CommandSpec, message: string): number {
  process.stderr.write(`${message}\n\n${commandUsage(spec)}\n`);
  return 2;
}

/** A zod refusal from a service's own schema, in flag terms: `scopes.0: must be one of …`. */
function describeValidation(error: ValidationError): string {
  const body = error.toBody() as { error?: string; details?: { path: string; message: string }[] };
  const details = body.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
  return `invalid input: ${details || body.error || error.message}`;
}

/** `a,b , c` → `['a', 'b', 'c']`. */
export function commaList(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value.split(',').map((item) => item.trim()).filter(Boolean);
}

/** `90s`, `15m`, `2h`, `1d` or plain seconds → seconds. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+)\s*(s|m|h|d)?$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[(match[2] ?? 's') as 's' | 'm' | 'h' | 'd'] : NaN;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new UsageError(`--${flag} must be a duration such as 90s, 15m or 2h`);
  return seconds;
}

export function stringFlag(flags: CommandInput['flags'], name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}
