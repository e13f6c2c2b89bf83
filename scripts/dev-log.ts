/**
 * Terminal 1 of `pnpm start` for people: each child's pino JSON line becomes one short line (`time part method route
 * status ms` for a request, `time part LEVEL message` for the rest) and the health and readiness checks (the starter's
 * own, the gateway's upstream probes, a load balancer's) are left out. `LOG_FORMAT=json`, and NODE_ENV=production unless
 * LOG_FORMAT says otherwise, keeps the JSON lines as the processes write them (prefixed with the part's name).
 */

export type LogFormat = 'pretty' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['pretty', 'json'];

/** LOG_FORMAT when set (pretty or json), else json in production and pretty everywhere else; undefined for another value. */
export function logFormatOf(env: NodeJS.ProcessEnv): LogFormat | undefined {
  const given = env.LOG_FORMAT?.trim().toLowerCase();
  if (!given) return env.NODE_ENV === 'production' ? 'json' : 'pretty';
  return LOG_FORMATS.find((format) => format === given);
}

/** Routes whose request lines are noise in a terminal: probes and scrapes. */
const HIDDEN_ROUTES = new Set(['/healthz', '/readyz', '/livez', '/metrics']);

/** pino's numeric levels; info is the usual one and goes without a label. */
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every line has, or that only machines read: left out of the `key=value` tail. */
const QUIET_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'name', 'service', 'msg', 'request_id', 'trace_id', 'span_id', 'err', 'error']);

type LogLine = Record<string, unknown> & { time?: unknown; level?: unknown; msg?: unknown };

/**
 * Formats the lines of parts whose names are at most `width` characters: one output line per input line, or undefined
 * for a line to leave out.
 */
export function devLogFormatter(width: number, now: () => Date = () => new Date()): (part: string, line: string) => string | undefined {
  return (part, line) => {
    const parsed = parseLogLine(line);
    const lead = (time: unknown) => `${clock(typeof time === 'string' ? new Date(time) : now())} ${part.padEnd(width)} `;
    if (!parsed) return line.trim() === '' ? undefined : lead(undefined) + line;
    if (isRequestLine(parsed)) {
      if (HIDDEN_ROUTES.has(parsed.route)) return undefined;
      const aborted = parsed.aborted === true ? ' (client went away)' : '';
      const route = parsed.route.length > 1 ? parsed.route.replace(/\/$/, '') : parsed.route; // a router's mount point: `/api/v1/rides/`
      return `${lead(parsed.time)}${parsed.method} ${route} ${parsed.status} ${formatMs(parsed.duration_ms)}${aborted}`;
    }
    const level = typeof parsed.level === 'number' ? LEVELS[parsed.level] : undefined;
    const parts = [level, typeof parsed.msg === 'string' ? parsed.msg : undefined, errorMessageOf(parsed.err ?? parsed.error), tailOf(parsed)];
    return lead(parsed.time) + parts.filter(Boolean).join(' ');
  };
}

function parseLogLine(line: string): LogLine | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

function isRequestLine(line: LogLine): line is LogLine & { method: string; route: string; status: number; duration_ms: number } {
  return line.msg === 'request' && typeof line.method === 'string' && typeof line.route === 'string' && typeof line.status === 'number';
}

/** `07:31:24` in the machine's time zone (a terminal's reader compares it with their clock). */
function clock(date: Date): string {
  return Number.isNaN(date.getTime()) ? '--:--:--' : date.toTimeString().slice(0, 8);
}

function formatMs(value: unknown): string {
  if (typeof value !== 'number') return '';
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}

function errorMessageOf(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? value : undefined;
  const { message, type } = value as { message?: unknown; type?: unknown };
  return typeof message === 'string' ? `${typeof type === 'string' ? `${type}: ` : ''}${message}` : undefined;
}

/** The line's other short scalar fields as `key=value`, e.g. `port=3002`. */
function tailOf(line: LogLine): string | undefined {
  const pairs = Object.entries(line)
    .filter(([key, value]) => !QUIET_FIELDS.has(key) && (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 80)))
    .map(([key, value]) => `${key}=${String(value)}`);
  return pairs.length ? pairs.join(' ') : undefined;
}
