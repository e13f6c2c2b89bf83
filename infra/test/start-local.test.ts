/**
 * Issue 35: `pnpm start` is for this machine only. In a checkout of its own (see copyCheckout) with nothing configured
 * but the database: every process listens on 127.0.0.1, not on the machine's other addresses, and the development
 * secrets are this checkout's, generated once into `.data/dev-secrets.json` (mode 600) and kept by the next start;
 * a token signed with the published DEV_JWT_SECRET is refused.
 */
import { statSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { DEFAULT_JWT_ISSUER, signAdminToken } from '@platform/service-kit/admin-auth';
import { DEV_JWT_SECRET } from '@platform/service-kit/config';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, newRedisPrefix } from '@platform/test-kit';
import { copyCheckout, type CheckoutCopy } from './helpers/checkout-copy';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';

jest.setTimeout(600000);

/** An address of this machine other than loopback (IPv4 first), or undefined when it has none. */
function nonLoopbackAddress(): string | undefined {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []).filter((a) => !a.internal && !a.address.startsWith('fe80:'));
  return (addresses.find((a) => a.family === 'IPv4') ?? addresses[0])?.address;
}

/** 'refused' when nothing accepts a TCP connection at host:port, 'accepted' when something does. */
function tcp(host: string, port: string): Promise<'accepted' | 'refused'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    const done = (outcome: 'accepted' | 'refused') => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(3000, () => done('refused'));
    socket.once('connect', () => done('accepted'));
    socket.once('error', () => done('refused'));
  });
}

/** The status an admin read answers for a token signed with `secret` (the certificate service's /admin/v1). */
async function adminStatus(port: string, secret: string): Promise<number> {
  const token = signAdminToken({ sub: 'user_local', org: 'org_local', org_name: 'Local Org', role: 'owner' }, secret, { issuer: DEFAULT_JWT_ISSUER });
  const response = await fetch(`http://127.0.0.1:${port}/admin/v1/summary`, { headers: { authorization: `Bearer ${token}` } });
  await response.arrayBuffer();
  return response.status;
}

const UNSET = { JWT_SECRET: undefined, CREDENTIAL_SIGNING_KEY: undefined, ISSUER_KEY_ENCRYPTION_KEY: undefined, WEBHOOK_SECRET_KEY: undefined, TRACKING_TOKEN_SECRET: undefined, PIN_FINGERPRINT_SECRET: undefined, BIND_ADDRESS: undefined, NODE_ENV: undefined };

describe('pnpm start in a fresh checkout', () => {
  let checkout: CheckoutCopy;
  let ports: Ports;
  let databaseUrl: string;
  let started: Started | undefined;
  const redisPrefix = newRedisPrefix('start_local');

  const start = async () => {
    started = pnpmStart({ ...UNSET, ...ports, DATABASE_URL: databaseUrl, REDIS_PREFIX: redisPrefix }, [], checkout.root);
    await waitForOutput(started, 'Partner platform is up', 240000);
  };
  const stop = async () => {
    if (started && started.pnpm.exitCode === null) process.kill(-started.pnpm.pid!, 'SIGINT');
    await started?.exited;
    await untilAllStopped(ports);
  };
  const secretsFile = () => path.join(checkout.root, '.data', 'dev-secrets.json');
  const storedJwtSecret = () => (JSON.parse(readFileSync(secretsFile(), 'utf8')) as { JWT_SECRET: string }).JWT_SECRET;

  beforeAll(async () => {
    checkout = copyCheckout(0o755);
    ports = await freePorts();
    databaseUrl = await createRunDatabase('start_local');
    await start();
  }, 300000);
  afterAll(async () => {
    // Ctrl-C first, as a user stops it: pnpm start then stops the services it started (each leads its own process
    // group, so a SIGKILL of pnpm's group alone would leave them running). SIGKILL only when that did not end it.
    if (started && started.pnpm.exitCode === null && started.pnpm.signalCode === null) {
      process.kill(-started.pnpm.pid!, 'SIGINT');
      await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, 30000))]);
      if (started.pnpm.exitCode === null && started.pnpm.signalCode === null) process.kill(-started.pnpm.pid!, 'SIGKILL');
    }
    await untilAllStopped(ports);
    await dropRunDatabase(databaseUrl);
    await clearRedisPrefix(redisPrefix);
    checkout?.remove();
  }, 90000);

  it('answers on 127.0.0.1 and refuses connections on the machine\'s other address (gateway, its metrics port, both services)', async () => {
    expect(await tcp('127.0.0.1', ports.GATEWAY_PORT)).toBe('accepted');
    expect((await fetch(`http://127.0.0.1:${ports.GATEWAY_PORT}/healthz`)).status).toBe(200);
    const address = nonLoopbackAddress();
    if (!address) {
      console.warn('skipped the non-loopback assertion: this machine has no address other than loopback (os.networkInterfaces())');
      return;
    }
    for (const port of Object.values(ports)) expect([address, port, await tcp(address, port)]).toEqual([address, port, 'refused']);
    expect(started!.output()).toContain('listening on 127.0.0.1   (this machine only; BIND_ADDRESS=0.0.0.0 opens every interface)');
  });

  it('generates this checkout\'s secrets into .data/dev-secrets.json (mode 600), not the published ones, and the services verify with them', async () => {
    expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);
    const secret = storedJwtSecret();
    expect(secret).not.toBe(DEV_JWT_SECRET);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(await adminStatus(ports.CERTIFICATE_PORT, DEV_JWT_SECRET)).toBe(401);
    expect(await adminStatus(ports.CERTIFICATE_PORT, secret)).not.toBe(401);
  });

  it('reuses the same secrets on the next start of the checkout: a token of the first start still works', async () => {
    const before = readFileSync(secretsFile(), 'utf8');
    const secret = storedJwtSecret();
    await stop();
    await start();
    expect(readFileSync(secretsFile(), 'utf8')).toBe(before);
    expect(await adminStatus(ports.CERTIFICATE_PORT, secret)).not.toBe(401);
    expect(await adminStatus(ports.CERTIFICATE_PORT, DEV_JWT_SECRET)).toBe(401);
  });
});
