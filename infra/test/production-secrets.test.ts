import { generateKeyPairSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseConfig } from '@platform/service-kit/config';
import { runTsToEnd } from '@platform/test-kit';
import { certificateConfigSchema } from '../../services/certificate/src/config';
import { developmentSigningKey } from '../../services/certificate/src/features/credentials/signing-key';
import { mobilityConfigSchema } from '../../services/mobility/src/config';

const root = path.resolve(__dirname, '../..');
const strong = () => randomBytes(32).toString('base64');

// Each entry point refuses a known or short secret before it touches Postgres or Redis: one line naming the variable, exit 1.
describe('production start-up with a weak secret', () => {
  it.each([
    ['services/certificate', 'src/server.ts', 'certificate', { GATEWAY_A_SECRET_KEY: 'replace-with-gateway-a-secret-key' }, 'GATEWAY_A_SECRET_KEY'],
    ['services/certificate', 'src/db/migrate.ts', 'certificate', { JWT_SECRET: 'replace-with-at-least-32-random-characters' }, 'JWT_SECRET'],
    ['services/mobility', 'src/server.ts', 'mobility', { JWT_SECRET: 'compose-development-secret-change-me' }, 'JWT_SECRET'],
    ['services/mobility', 'src/worker.ts', 'mobility-worker', { WEBHOOK_SECRET_KEY: 'sixteen-bytes-ok' }, 'WEBHOOK_SECRET_KEY'],
  ])('%s %s exits 1 naming the variable', async (dir, entry, processName, weak, variable) => {
    const result = await runTsToEnd(path.join(root, dir), entry, { NODE_ENV: 'production', JWT_SECRET: strong(), ...weak });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(new RegExp(`^${processName}: Invalid environment variable ${variable}: [^\\n]+ when NODE_ENV=production \\(got a hidden value\\)$`));
    expect(result.stderr).not.toContain(Object.values(weak)[0]);
  });
});

/** The published development key as an operator would paste it (PKCS#8 PEM, or a private JWK). */
const developmentKeyPem = developmentSigningKey().export({ format: 'pem', type: 'pkcs8' }).toString();
const developmentKeyJwk = JSON.stringify(developmentSigningKey().export({ format: 'jwk' }));
/** What else a production certificate service needs, so that the refusal under test is the first one. */
const certificateProduction = () => ({
  NODE_ENV: 'production',
  JWT_SECRET: strong(),
  CREDENTIAL_SIGNING_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  ISSUER_KEY_ENCRYPTION_KEY: strong(),
  PUBLIC_BASE_URL: 'https://certificates.example.com',
  DASHBOARD_ORIGINS: 'https://certificates.example.com',
});
const mobilityProduction = () => ({ NODE_ENV: 'production', JWT_SECRET: strong(), WEBHOOK_SECRET_KEY: strong(), TRACKING_TOKEN_SECRET: strong(), PIN_FINGERPRINT_SECRET: strong(), PUBLIC_BASE_URL: 'https://api.example.com' });
// Where the old code went on after accepting the value: a database that does not answer, and no fixed port.
const nowhere = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere', PORT: '0' };

// Issue 35: guessable, reused and published secrets, development-only webhook targets and an http:// public address.
describe('production start-up refuses what only development may use', () => {
  const same = strong();
  it.each([
    ['services/certificate', 'src/server.ts', 'certificate', { JWT_SECRET: 'Password123Password123Password123!' }, 'JWT_SECRET', 'a value built from common passwords, runs \\(123, abc, qwerty\\) or repetition is refused when NODE_ENV=production \\(got a hidden value\\)'],
    ['services/mobility', 'src/server.ts', 'mobility', { JWT_SECRET: same, WEBHOOK_SECRET_KEY: same }, 'WEBHOOK_SECRET_KEY', 'is the same value as JWT_SECRET: each secret must be its own when NODE_ENV=production \\(got a hidden value\\)'],
    ['services/certificate', 'src/server.ts', 'certificate', { CREDENTIAL_SIGNING_KEY: developmentKeyPem }, 'CREDENTIAL_SIGNING_KEY', 'is the development key published in the source: anyone can sign credentials with it, refused when NODE_ENV=production \\(got a hidden value\\)'],
    ['services/mobility', 'src/server.ts', 'mobility', { WEBHOOK_ALLOW_PRIVATE: 'true' }, 'WEBHOOK_ALLOW_PRIVATE', 'is for development only \\(local receivers\\), refused when NODE_ENV=production \\(got "true"\\)'],
    ['services/mobility', 'src/worker.ts', 'mobility-worker', { WEBHOOK_ALLOW_HTTP: 'true' }, 'WEBHOOK_ALLOW_HTTP', 'is for development only \\(local receivers\\), refused when NODE_ENV=production \\(got "true"\\)'],
    ['services/certificate', 'src/server.ts', 'certificate', { PUBLIC_BASE_URL: 'http://certificates.example.com' }, 'PUBLIC_BASE_URL', 'must be an https:// address when NODE_ENV=production \\(links sent over http:// can be read and changed on the way\\) \\(got "http://certificates.example.com"\\)'],
  ])('%s %s (%s) exits 1 with one line naming the variable', async (dir, entry, processName, given, variable, reason) => {
    const production = dir === 'services/certificate' ? certificateProduction() : mobilityProduction();
    const result = await runTsToEnd(path.join(root, dir), entry, { ...production, ...nowhere, ...given });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(new RegExp(`^${processName}: Invalid environment variable ${variable}: ${reason}$`));
    const value = Object.values(given).at(-1)!;
    if (/SECRET|KEY/.test(variable)) expect(result.stderr).not.toContain(value.split('\n')[1] || value); // a PEM: its key line
  });

  it('refuses the development key as a JWK too, and each development-only switch in the API and the worker alike', () => {
    expect(() => parseConfig(certificateConfigSchema, { ...certificateProduction(), CREDENTIAL_SIGNING_KEY: developmentKeyJwk })).toThrow(/^Invalid environment variable CREDENTIAL_SIGNING_KEY: is the development key published in the source/);
    expect(() => parseConfig(mobilityConfigSchema, { ...mobilityProduction(), WEBHOOK_ALLOW_HTTP: 'true' })).toThrow(/^Invalid environment variable WEBHOOK_ALLOW_HTTP: is for development only/);
    expect(() => parseConfig(mobilityConfigSchema, { ...mobilityProduction(), PUBLIC_BASE_URL: 'http://api.example.com' })).toThrow(/^Invalid environment variable PUBLIC_BASE_URL: must be an https:\/\/ address/);
    const secret = strong();
    expect(() => parseConfig(mobilityConfigSchema, { ...mobilityProduction(), TRACKING_TOKEN_SECRET: secret, PIN_FINGERPRINT_SECRET: secret })).toThrow(/^Invalid environment variable PIN_FINGERPRINT_SECRET: is the same value as TRACKING_TOKEN_SECRET/);
    expect(() => parseConfig(certificateConfigSchema, { ...certificateProduction(), GATEWAY_A_SECRET_KEY: secret, GATEWAY_B_SECRET_KEY: secret })).toThrow(/^Invalid environment variable GATEWAY_B_SECRET_KEY: is the same value as GATEWAY_A_SECRET_KEY/);
  });

  it('still starts what production should: its own strong secrets, https, and compose\'s loopback http with ALLOW_LOOPBACK_PUBLIC_URLS', () => {
    expect(parseConfig(certificateConfigSchema, certificateProduction()).NODE_ENV).toBe('production');
    expect(parseConfig(mobilityConfigSchema, mobilityProduction()).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    const compose = { PUBLIC_BASE_URL: 'http://localhost:8080', DASHBOARD_ORIGINS: 'http://localhost:8080', ALLOW_LOOPBACK_PUBLIC_URLS: 'true' };
    expect(parseConfig(certificateConfigSchema, { ...certificateProduction(), ...compose }).PUBLIC_BASE_URL).toBe('http://localhost:8080');
    expect(parseConfig(mobilityConfigSchema, { ...mobilityProduction(), ...compose }).PUBLIC_BASE_URL).toBe('http://localhost:8080');
    // Development keeps its local receivers and the published defaults.
    expect(parseConfig(mobilityConfigSchema, { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOW_HTTP).toBe(true);
    expect(parseConfig(certificateConfigSchema, { CREDENTIAL_SIGNING_KEY: developmentKeyPem }).CREDENTIAL_SIGNING_KEY).toBe(developmentKeyPem);
  });
});
