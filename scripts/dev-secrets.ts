/**
 * The development secrets of one checkout: `.data/dev-secrets.json` (git-ignored, mode 600), generated at random the
 * first time `pnpm start` or `pnpm platform` needs them and reused afterwards, so admin tokens, webhook secrets at rest,
 * tracking links and credentials stay valid across restarts while nobody else knows them. They replace the values
 * published in the source (DEV_JWT_SECRET, the development signing key, …), which anyone on the same network could use
 * against a running `pnpm start`. An explicit variable always wins; with NODE_ENV=production nothing is filled in (the
 * processes then refuse to start without their own secrets).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What `pnpm start` hands its processes (the gateway takes JWT_SECRET, each service the ones its config reads). */
export const DEV_SECRET_NAMES = ['JWT_SECRET', 'CREDENTIAL_SIGNING_KEY', 'ISSUER_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_KEY', 'TRACKING_TOKEN_SECRET', 'PIN_FINGERPRINT_SECRET'] as const;
export type DevSecretName = (typeof DEV_SECRET_NAMES)[number];
export type DevSecrets = Record<DevSecretName, string>;

export const devSecretsFile = (root: string) => path.join(root, '.data', 'dev-secrets.json');

function generate(name: DevSecretName): string {
  if (name === 'CREDENTIAL_SIGNING_KEY') return generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return randomBytes(32).toString('base64url');
}

function read(file: string): Partial<DevSecrets> | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<DevSecrets>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} is not readable JSON (${(error as Error).message}): remove it to generate new development secrets`);
  }
}

/** Writes `secrets` beside `file` (mode 600) and moves it in place: over an older file when `replace`, else only if none exists. */
function write(file: string, secrets: DevSecrets, replace: boolean): boolean {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600); // whatever the umask
  try {
    if (replace) {
      renameSync(temporary, file);
      return true;
    }
    linkSync(temporary, file); // fails when another start created the file meanwhile: its secrets are the checkout's then
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** This checkout's development secrets, created on first use (one set per checkout, also when two starts race). */
export function checkoutDevSecrets(root: string): DevSecrets {
  const file = devSecretsFile(root);
  for (;;) {
    const stored = read(file);
    const missing = DEV_SECRET_NAMES.filter((name) => typeof stored?.[name] !== 'string' || stored[name] === '');
    if (stored && missing.length === 0) return stored as DevSecrets;
    const secrets = Object.fromEntries(DEV_SECRET_NAMES.map((name) => [name, stored?.[name] || generate(name)])) as DevSecrets;
    if (write(file, secrets, stored !== undefined)) return secrets;
  }
}

/**
 * Outside production, sets each development secret that `env` leaves unset (or empty) to this checkout's; answers the
 * names it filled in. With NODE_ENV=production it changes nothing.
 */
export function adoptDevSecrets(root: string, env: NodeJS.ProcessEnv): DevSecretName[] {
  if (env.NODE_ENV === 'production') return [];
  const unset = DEV_SECRET_NAMES.filter((name) => !env[name]);
  if (unset.length === 0) return [];
  const secrets = checkoutDevSecrets(root);
  for (const name of unset) env[name] = secrets[name];
  return unset;
}

/** The JWT_SECRET a running `pnpm start` of this checkout verifies with (the environment's, else the checkout's); for load tests and drills. */
export function checkoutJwtSecret(root: string, env: NodeJS.ProcessEnv = process.env): string {
  adoptDevSecrets(root, env);
  if (!env.JWT_SECRET) throw new Error('JWT_SECRET is unset (NODE_ENV=production has no development secrets): set it to the running system\'s');
  return env.JWT_SECRET;
}
