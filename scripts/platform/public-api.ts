/**
 * The partner API as the commands that use it (`webhooks listen`, `trigger`) reach it: through the gateway of the running
 * `pnpm start` by default, with the partner's own key, one JSON call at a time. Failures to connect become one line that
 * says how to get a platform running.
 */
import { readRunningState, workspaceRoot } from '../running-state';
import { CommandError, UsageError, stringFlag, type CommandInput } from './cli';

export interface PublicApi {
  key: string;
  apiUrl: URL;
}

export interface ApiAnswer {
  status: number;
  json: Record<string, unknown>;
}

/** `--url`'s description for a command's details. */
export const API_URL_DETAILS = [
  '--url is the API base: by default the gateway of the running `pnpm start` (its .data/running.json), else',
  'http://127.0.0.1:$GATEWAY_PORT (8080 when unset);',
  'the mobility service itself (http://127.0.0.1:3002) works too.',
  '--key may come from PLATFORM_API_KEY instead (pnpm echoes a script\'s flags unless run as `pnpm -s`).',
];

/** The key (--key or PLATFORM_API_KEY: `pnpm platform …` without -s echoes its command line, flags included) and API base. */
export function publicApiFrom(flags: CommandInput['flags'], keyRule: string): PublicApi {
  const key = stringFlag(flags, 'key') ?? process.env.PLATFORM_API_KEY;
  if (!key) throw new UsageError('--key is required (or set PLATFORM_API_KEY)');
  if (!key.startsWith('mk_')) throw new UsageError(`--key must be ${keyRule}`);
  return { key, apiUrl: absoluteUrl(stringFlag(flags, 'url') ?? defaultApiUrl(), 'url', 'http://127.0.0.1:8080') };
}

/** An http:// or https:// URL given on the command line, or a usage error naming the flag. */
export function absoluteUrl(text: string, flag: string, example: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--${flag} must be an absolute URL such as ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--${flag} must be an http:// or https:// URL`);
  return url;
}

/** An explicit GATEWAY_PORT, else the gateway `pnpm start` recorded in this checkout, else :8080. */
function defaultApiUrl(): string {
  if (process.env.GATEWAY_PORT) return `http://127.0.0.1:${process.env.GATEWAY_PORT}`;
  return readRunningState(workspaceRoot(__dirname))?.gatewayUrl ?? 'http://127.0.0.1:8080';
}

export async function callApi(api: PublicApi, method: string, path: string, body?: object): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(new URL(path, api.apiUrl), {
      method,
      headers: { authorization: `Bearer ${api.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15000),
    });
  } catch (error) {
    throw new CommandError(`cannot reach ${api.apiUrl.origin} (${(error as Error).cause ?? (error as Error).message}): is the platform running (pnpm start)? Pass --url otherwise`);
  }
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // not JSON: only the status speaks
  }
  return { status: response.status, json };
}

/** `422 invalid input (pickup: Required)`: a refusal's status, message and field details on one line. */
export function describeRefusal({ status, json }: ApiAnswer): string {
  const details = Array.isArray(json.details) ? ` (${(json.details as { path: string; message: string }[]).map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
  const code = typeof json.code === 'string' ? ` [${json.code}]` : '';
  return `${status} ${String(json.error ?? json.detail ?? '')}${code}${details}`.replace(/\s+/g, ' ').trim();
}
