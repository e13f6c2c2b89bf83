/**
 * The README's quick start, run as written: the commands are read from the "Quick start" section's code block (so the
 * README and this test cannot drift), the start line runs as `./pnpmw start` with nothing configured and nothing at the
 * default Postgres and Redis addresses (so it runs its embedded Postgres and a redis-server, in a checkout of its own:
 * see copyCheckout), and every other line runs in order in one bash (shell variables carry ids from one command to the
 * next) in that checkout, with the environment a terminal would have: no DATABASE_URL, REDIS_URL, REDIS_PREFIX or
 * GATEWAY_PORT, so `./pnpmw -s platform` finds the running system through its .data/running.json. Only the curl lines'
 * :8080 is replaced by this run's free gateway port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createDatabase } from '@platform/service-kit/db';
import { listen } from '@platform/test-kit';
import { copyCheckout, type CheckoutCopy } from './helpers/checkout-copy';
import { quickStartCommands } from './helpers/quickstart';
import { freePorts, pnpmStart, untilAllStopped, waitForOutput, type Ports, type Started } from './helpers/pnpm-start';
import { withoutSourceCondition } from '@platform/service-kit/compiled-env';

jest.setTimeout(600000);

/** A port nothing listens on (bound, then closed again): the "default" Postgres and Redis addresses of this run. */
async function closedPort(): Promise<number> {
  const probe = await listen(() => undefined);
  await probe.close();
  return probe.port;
}

/** Variables a terminal of the quick start does not have: the CLI must find the running system by itself. */
const CONFIGURED = ['DATABASE_URL', 'CERTIFICATE_DATABASE_URL', 'MOBILITY_DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'GATEWAY_PORT', 'PLATFORM_EMBEDDED_POSTGRES_DIR'];

let checkout: CheckoutCopy | undefined;
let system: Started | undefined;
let ports: Ports | undefined;
let shell: ChildProcess | undefined;

afterAll(async () => {
  // The shell and its background listener lead their own process group; whatever still runs is stopped with it.
  if (shell?.pid) {
    try {
      process.kill(-shell.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  // Ctrl-C to `pnpm start`: it stops the services, then its embedded Postgres and redis-server.
  if (system && system.pnpm.exitCode === null) {
    process.kill(-system.pnpm.pid!, 'SIGINT');
    const killer = setTimeout(() => system!.pnpm.exitCode === null && process.kill(-system!.pnpm.pid!, 'SIGKILL'), 30_000);
    await system.exited;
    clearTimeout(killer);
  }
  if (ports) await untilAllStopped(ports);
  checkout?.remove();
});

describe('README quick start', () => {
  it('takes a new partner from an empty database to a completed ride and a verified ride.completed webhook, in at most ten commands', async () => {
    const commands = quickStartCommands();
    const [start, ...rest] = commands;
    // At most ten commands, counting each part of an `a && b` line.
    expect(commands.reduce((count, command) => count + command.text.split('&&').length, 0)).toBeLessThanOrEqual(10);

    // Terminal 1: `./pnpmw start` runs as written (the checkout's Node 24 and pnpm are on PATH and node_modules is
    // current, so the wrapper goes straight to `pnpm start`: compiled output), on a database that does not exist yet.
    expect(start!.text).toBe('./pnpmw start');
    checkout = copyCheckout(0o755);
    ports = await freePorts();
    const [postgresPort, redisPort] = [await closedPort(), await closedPort()];
    system = pnpmStart(
      {
        ...Object.fromEntries(CONFIGURED.map((name) => [name, undefined])),
        ...ports,
        PLATFORM_DEFAULT_DATABASE_URL: `postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`,
        PLATFORM_DEFAULT_REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      },
      [],
      checkout.root,
      path.join(checkout.root, 'pnpmw'),
    );
    await waitForOutput(system, 'Partner platform is up', 240_000);
    expect(system.output()).toContain(`started an embedded Postgres at postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`);
    const port = ports.GATEWAY_PORT;
    const gatewayUrl = `http://127.0.0.1:${port}`;

    // Terminal 2: one bash in the same folder, fed one command at a time; only the curl lines' :8080 is this run's gateway.
    const nodeOptions = withoutSourceCondition(process.env.NODE_OPTIONS);
    const terminal: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: nodeOptions, LOG_LEVEL: 'warn' };
    for (const name of CONFIGURED) delete terminal[name];
    for (const name of Object.keys(ports)) delete terminal[name];
    shell = spawn('bash', [], { cwd: checkout.root, env: terminal, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => shell!.once('exit', (code) => resolve(code)));
    shell.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    shell.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const until = async (check: () => boolean, what: string, timeoutMs = 120000) => {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline || shell!.exitCode !== null) throw new Error(`gave up waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    for (const [index, command] of rest.entries()) {
      const text = command.text.replaceAll('localhost:8080', `localhost:${port}`);
      expect(text).not.toMatch(/:8080\b/); // any other spelling of the default address would reach another system
      const marker = `<<quick start command ${index} exited `;
      shell.stdin!.write(`${text}\nprintf '\\n%s%s>>\\n' '${marker}' "$?"\n`);
      await until(() => stdout.includes(marker), `command ${index}: ${command.text}`);
      const exit = /^(\d+)>>/.exec(stdout.slice(stdout.indexOf(marker) + marker.length))?.[1];
      if (exit !== '0') throw new Error(`command ${index} exited ${exit}: ${command.text}\nstderr:\n${stderr}\npnpm start:\n${system.output().slice(-3000)}`);
      if (command.waitFor) await until(() => stdout.includes(command.waitFor!), `"${command.waitFor}" after: ${command.text}`);
    }

    // The listener printed the verified ride.completed delivery, deleted its endpoint and exited (--exit-after 1).
    await until(() => /ride\.completed ride_\w+ ✓ signature verified/.test(stdout) && stderr.includes('Deleted endpoint'), 'the verified ride.completed line');
    shell.stdin!.write(`printf '<<vars %s %s %s>>\\n' "$ORG" "$KEY" "$RIDE"\nwait\nexit\n`);
    expect(await exited).toBe(0);

    const [, organizationId, key, rideId] = /<<vars (org_\S+) (mk_test_\S+) (ride_\S+)>>/.exec(stdout)!;
    expect(stdout).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ ride\\.completed ${rideId} ✓ signature verified$`, 'm'));
    expect(stdout).not.toMatch(/signature refused/);
    expect(stdout).toMatch(/^Signing secret \(shown only now\): whsec_/m);
    // The README's last command showed the completed ride.
    expect(stdout).toMatch(new RegExp(`"id":"${rideId}"[^\\n]*"status":"completed"|"status":"completed"[^\\n]*"id":"${rideId}"`));

    const headers = { authorization: `Bearer ${key}` };
    const ride = await fetch(`${gatewayUrl}/api/v1/rides/${rideId}`, { headers });
    expect(ride.status).toBe(200);
    expect(await ride.json()).toMatchObject({ id: rideId, status: 'completed', livemode: false });
    const endpoints = await fetch(`${gatewayUrl}/api/v1/webhooks`, { headers });
    expect(((await endpoints.json()) as { data: unknown[] }).data).toEqual([]);

    // It started from an empty database (a new embedded cluster): the quick start's organization and ride are the only ones.
    const { databaseUrl } = JSON.parse(fs.readFileSync(path.join(checkout.root, '.data', 'running.json'), 'utf8')) as { databaseUrl: string };
    expect(databaseUrl).toBe(`postgres://postgres@127.0.0.1:${postgresPort}/partner_platform`);
    const certificate = createDatabase(databaseUrl, 'certificate', 1);
    const mobility = createDatabase(databaseUrl, 'mobility', 1);
    try {
      expect(await certificate('organizations').pluck('id')).toEqual([organizationId]);
      expect(await mobility('rides').select('id', 'partner_id', 'status', 'livemode')).toEqual([{ id: rideId, partner_id: organizationId, status: 'completed', livemode: false }]);
    } finally {
      await certificate.destroy();
      await mobility.destroy();
    }

    // `org create` in terminal 2 found the local mail catcher through running.json: the owner's invitation is in the inbox.
    const orgCreate = rest.find((command) => command.text.includes('org create'))!.text;
    const [owner, name] = [/--owner-email (\S+)/.exec(orgCreate)![1]!, /--name "([^"]+)"/.exec(orgCreate)![1]!];
    const inbox = /mail inbox\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(system.output())![1]!;
    const mails = (await (await fetch(`${inbox}messages`)).json()) as Array<{ to: string[]; subject: string; text: string }>;
    expect(mails.filter((mail) => mail.to.includes(owner))).toEqual([
      expect.objectContaining({ subject: `You are invited to ${name}`, text: expect.stringMatching(/\/dashboard\/invite\/[A-Za-z0-9_-]{20,}/) }),
    ]);

  });
});
