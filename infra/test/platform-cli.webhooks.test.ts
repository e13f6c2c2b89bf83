/**
 * `pnpm platform webhooks listen` and `pnpm platform trigger` against a running mobility service and worker (started from source on this run's own
 * database and Redis prefix, allowing http:// loopback receivers as `pnpm start` does in development): the commands a
 * partner runs, from an organization to a verified `ride.cancelled` delivery, and the endpoint gone afterwards; then a
 * test key's `trigger ride.completed` forwarded by `listen --forward-to` to a local app.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { clearRedisPrefix, createRunDatabase, dropRunDatabase, listen, newRedisPrefix, redisUrl, sendJson, startFakeServer } from '@platform/test-kit';
import { verifyStandardWebhook } from '@platform/webhook-signature';
import { platform, platformJson, root } from './helpers/platform-cli';

jest.setTimeout(300000);

let databaseUrl: string;
let redisPrefix: string;
let env: NodeJS.ProcessEnv;
let api: string;
const processes: ChildProcess[] = [];

function startFromSource(entry: string, extraEnv: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], { cwd: root, env: { ...process.env, ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.once('exit', (code) => {
    if (code) process.stderr.write(`${entry} exited ${code}:\n${output}\n`);
  });
  processes.push(child);
  return child;
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 90000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  databaseUrl = await createRunDatabase('platform_listen');
  redisPrefix = newRedisPrefix('platform_listen');
  const probe = await listen(() => undefined);
  await probe.close();
  api = `http://127.0.0.1:${probe.port}`;
  // One JWT secret for the services and the CLI (without it the CLI would sign with this checkout's .data/dev-secrets.json).
  env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl(), REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', JWT_SECRET: 'platform-listen-test-jwt-secret-0123456789abcdef' };
  startFromSource('services/mobility/src/server.ts', { PORT: String(probe.port) });
  await until(async () => (await fetch(`${api}/healthz`).catch(() => undefined))?.ok === true, 'the mobility service');
  startFromSource('services/mobility/src/worker.ts', {});
});

afterAll(async () => {
  await Promise.all(
    processes
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
  );
  await dropRunDatabase(databaseUrl);
  await clearRedisPrefix(redisPrefix);
});

describe('pnpm platform webhooks listen', () => {
  it('takes a partner from nothing to a verified ride webhook, refuses a forged delivery, and deletes its endpoint on exit', async () => {
    const { organization } = await platformJson<{ organization: { id: string } }>(['org', 'create', '--name', 'Listen Rides', '--owner-email', 'ops@example.com'], env);
    const { token: key } = await platformJson<{ token: string }>(['keys', 'create', '--service', 'mobility', '--org', organization.id], env);
    const driver = await platformJson<{ id: string }>(['drivers', 'register', '--org', organization.id, '--name', 'Musa Danjuma'], env);

    // The minted tokens work against the running service: the admin token sees the fleet, the driver token the driver app.
    const { token: adminToken } = await platformJson<{ token: string }>(['token', 'admin', '--org', organization.id, '--role', 'operator'], env);
    const fleet = await fetch(`${api}/admin/v1/drivers`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(fleet.status).toBe(200);
    expect(((await fleet.json()) as { data: { id: string }[] }).data.map((d) => d.id)).toEqual([driver.id]);
    const { token: driverToken } = await platformJson<{ token: string }>(['token', 'driver', driver.id], env);
    expect((await fetch(`${api}/driver/v1/offers`, { headers: { authorization: `Bearer ${driverToken}` } })).status).toBe(200);

    const listener = spawn(process.execPath, ['scripts/platform.cjs', 'webhooks', 'listen', '--key', key, '--url', api, '--events', 'ride.cancelled', '--exit-after', '1'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    processes.push(listener);
    let stdout = '';
    let stderr = '';
    listener.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    listener.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => listener.once('exit', (code) => resolve(code)));
    await until(() => stdout.includes('Signing secret') || listener.exitCode !== null, 'the listener to be ready');
    expect(stdout).toMatch(/Signing secret \(shown only now\): whsec_/);
    const receiver = /at (http:\/\/127\.0\.0\.1:\d+\/webhooks) \(endpoint (whe_[0-9a-z]+)\)/.exec(stdout)!;
    expect(receiver).not.toBeNull();

    const endpoints = await fetch(`${api}/api/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await endpoints.json()) as { data: { id: string; url: string }[] }).data).toEqual([expect.objectContaining({ id: receiver[2], url: receiver[1] })]);

    // Someone who does not know the secret: refused with 400, one refusal line, and it does not count toward --exit-after.
    const forged = await fetch(receiver[1]!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
      body: JSON.stringify({ id: 'evt_forged', type: 'ride.cancelled', data: { id: 'ride_forged' } }),
    });
    expect(forged.status).toBe(400);
    await until(() => stdout.includes('ride_forged'), 'the refusal line');
    expect(stdout).toMatch(/\S+ ride\.cancelled ride_forged ✗ signature refused/);
    expect(listener.exitCode).toBeNull();

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${api}/api/v1/rides`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4654, lng: 3.4064 }, tier: 'economy', passenger: { name: 'Ada Obi', phone: '+234 802 000 0000' } }),
    });
    expect(created.status).toBe(201);
    const ride = (await created.json()) as { id: string };
    expect((await fetch(`${api}/api/v1/rides/${ride.id}/cancel`, { method: 'POST', headers, body: '{}' })).status).toBe(200);

    expect(await exited).toBe(0);
    expect(stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ ride\\.cancelled ${ride.id} ✓ signature verified$`, 'm'));
    expect(stderr).toContain(`Deleted endpoint ${receiver[2]}.`);
    const after = await fetch(`${api}/api/v1/webhooks`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await after.json()) as { data: unknown[] }).data).toEqual([]);
  });
});

describe('pnpm platform trigger, with webhooks listen --forward-to', () => {
  it('makes a test ride that completes, and the listener forwards the signed ride.completed to the app and prints its answer', async () => {
    const { organization } = await platformJson<{ organization: { id: string } }>(['org', 'create', '--name', 'Trigger Rides', '--owner-email', 'ops@example.com'], env);
    const { token: testKey } = await platformJson<{ token: string }>(['keys', 'create', '--service', 'mobility', '--org', organization.id, '--test'], env);
    expect(testKey).toMatch(/^mk_test_/);
    // The partner's app: a real local server that answers 202 (not the listener's own 200), recording what it got.
    const app = await startFakeServer((_request, res) => sendJson(res, 202, { ok: true }));
    try {
      const listener = spawn(process.execPath, ['scripts/platform.cjs', 'webhooks', 'listen', '--key', testKey, '--url', api, '--events', 'ride.completed', '--forward-to', `${app.url}/hooks/platform`, '--exit-after', '1'], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      processes.push(listener);
      let stdout = '';
      listener.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      listener.stderr!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => listener.once('exit', (code) => resolve(code)));
      await until(() => stdout.includes('Signing secret') || listener.exitCode !== null, 'the listener to be ready');
      expect(stdout).toContain(`Forwarding verified deliveries to ${app.url}/hooks/platform.`);
      const secret = /Signing secret \(shown only now\): (whsec_\S+)/.exec(stdout)![1]!;

      const triggered = await platform(['trigger', 'ride.completed', '--key', testKey, '--url', api], env);
      expect(triggered.stderr).toBe('');
      expect(triggered.code).toBe(0);
      const rideId = /Created test ride (ride_\w+) \(POST \/api\/v1\/rides\) and moved it to completed/.exec(triggered.stdout)?.[1];
      expect(rideId).toBeDefined();
      // Every event of the sandbox's walk, in order, each with its id.
      expect(triggered.stdout.split('\n').filter((line) => /^ {2}evt_\w+ {2}ride\./.test(line)).map((line) => line.trim().split(/\s+/)[1])).toEqual([
        'ride.accepted',
        'ride.arrived',
        'ride.in_progress',
        'ride.completed',
      ]);

      expect(await exited).toBe(0);
      expect(stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ ride\\.completed ${rideId} ✓ signature verified → \\[202\\] \\d+ ms$`, 'm'));
      // The app got the platform's delivery itself: same method and body bytes, a signature it verifies with the listener's secret.
      expect(app.requests).toHaveLength(1);
      const [delivery] = app.requests;
      expect(delivery!.method).toBe('POST');
      expect(delivery!.url).toBe('/hooks/platform');
      expect(verifyStandardWebhook(delivery!.body, delivery!.headers, secret)).toBe(true);
      expect(JSON.parse(delivery!.body.toString('utf8'))).toMatchObject({ type: 'ride.completed', livemode: false, data: { id: rideId, status: 'completed' } });
    } finally {
      await app.close();
    }
  });

  it('cancels a test delivery for delivery.cancelled and lists the event it caused (--json)', async () => {
    const { organization } = await platformJson<{ organization: { id: string } }>(['org', 'create', '--name', 'Trigger Parcels', '--owner-email', 'ops@example.com'], env);
    const { token: testKey } = await platformJson<{ token: string }>(['keys', 'create', '--service', 'mobility', '--org', organization.id, '--test'], env);
    const result = await platformJson<{ object: { type: string; id: string; status: string }; events: { id: string; type: string }[] }>(['trigger', 'delivery.cancelled', '--key', testKey, '--url', api], env);
    expect(result.object).toMatchObject({ type: 'delivery', status: 'cancelled' });
    expect(result.events).toEqual([{ id: expect.stringMatching(/^evt_/), type: 'delivery.cancelled' }]);
    const seen = await fetch(`${api}/api/v1/deliveries/${result.object.id}`, { headers: { authorization: `Bearer ${testKey}` } });
    expect(await seen.json()).toMatchObject({ status: 'cancelled', livemode: false });
  });

  it('refuses an event type it cannot trigger with one line listing the ones it can (exit 2), and a live key with one line', async () => {
    const unknown = await platform(['trigger', 'ride.teleported', '--key', 'mk_test_whatever', '--url', api], env);
    expect(unknown.code).toBe(2);
    const lines = unknown.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot trigger "ride\.teleported": pick one of ride\.accepted, .*ride\.completed, .*delivery\.delivered/);
    expect(lines[0]).not.toContain('location_updated');

    const live = await platform(['trigger', 'ride.completed', '--key', 'mk_0000000000000000000000000000000000000', '--url', api], env);
    expect(live.code).toBe(1);
    expect(live.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^refused: trigger makes test data only .*mk_test_/)]);
  });
});
