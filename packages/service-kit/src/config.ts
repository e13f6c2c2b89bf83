import { isIP } from 'node:net';
import { z } from 'zod';

/** Thrown when the environment does not satisfy a process's schema; its message is one line naming the variable. */
export class ConfigError extends Error {}

/**
 * Parses the environment once at start-up. Empty strings count as unset, so `PORT=` falls back to the default.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const cleaned: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') cleaned[name] = value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const variable = String(issue.path[0] ?? 'environment');
  const got = cleaned[variable];
  const shown = got === undefined ? 'unset' : isSecretName(variable) ? 'a hidden value' : JSON.stringify(got);
  throw new ConfigError(`Invalid environment variable ${variable}: ${issue.message} (got ${shown})`);
}

/** Parses the environment or exits with one clear line; for process entry points. */
export function loadConfigOrExit<S extends z.ZodType>(schema: S, processName: string): z.infer<S> {
  try {
    return parseConfig(schema);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${processName}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

function isSecretName(name: string): boolean {
  return /SECRET|KEY|PASSWORD|TOKEN|HASH/i.test(name);
}

/** Reusable field schemas so every process spells its variables the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number({ message: 'must be a port number' }).int('must be a port number').min(0).max(65535).default(fallback),
  url: (fallback: string) => z.url({ message: 'must be a URL' }).default(fallback),
  /** Unset or empty (compose's `${VAR:-}`) both mean none. */
  optionalUrl: () => z.preprocess((value) => (value === '' ? undefined : value), z.url({ message: 'must be a URL' }).optional()),
  positiveInt: (fallback: number) => z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').positive('must be positive').default(fallback),
  boolean: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
      .transform((v) => v === 'true' || v === '1' || v === 'yes')
      .default(fallback),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `off` answers every request through the app (the table-mounted routes), for `pnpm bench:lanes`' comparison. */
  fastLanes: () => z.enum(['on', 'off']).default('on'),
  nodeEnv: () => z.enum(['development', 'production', 'test']).default('development'),
  /**
   * BIND_ADDRESS: the interface a process listens on. 127.0.0.1 unless told otherwise, so a development machine's
   * services are not reachable from its network; the image sets 0.0.0.0 (containers are reached through their network).
   */
  bindAddress: () => z.string().refine((value) => isIP(value) !== 0, 'must be an IP address such as 127.0.0.1, 0.0.0.0 or ::').default('127.0.0.1'),
};

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/partner_platform';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me';

/** JWT_SECRET: the fixed development value is refused in production. */
export function jwtSecretSchema() {
  return z.string().min(16, 'must be at least 16 characters').default(DEV_JWT_SECRET);
}

/** Whether `value` parses as an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
