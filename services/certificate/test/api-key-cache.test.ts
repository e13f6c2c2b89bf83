import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import pg from 'pg';
import { apiKeyAcksChannel, apiKeyCacheApplicationName, apiKeyChangesChannel, listenForApiKeyChanges, ApiKeyAuthCache } from '@platform/api-keys';
import { createDatabase, type Knex } from '@platform/service-kit/db';
import { parseConfig } from '@platform/service-kit/config';
import { runDatabaseUrl, spawnTs, spawnablePort, waitFor } from '@platform/test-kit';
import { createApp } from '../src/app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from '../src/config';
import { buildServices } from '../src/services';
import { newOrg, type TestOrg } from './factories/admin';
import { createTestContext, type TestContext } from './helpers/context';

const serviceDir = path.resolve(__dirname, '..');

interface ServerProcess {
  base: string;
  child: ChildProcess;
  output: () => string;
}

async function startServer(): Promise<ServerProcess> {
  const port = await spawnablePort();
  const child = spawnTs(serviceDir, 'src/server.ts', { DATABASE_URL: runDatabaseUrl(), PORT: String(port), NODE_ENV: 'test', LOG_LEVEL: 'warn' });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    // tsx compiles the whole service from source at start; two at once on a busy machine can take a while.
    await waitFor(
      async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200,
      'the certificate process to be ready',
      { context: () => output.slice(-2000), timeoutMs: 60_000 },
    );
  } catch (error) {
    child.kill('SIGKILL'); // a process that never became ready must not outlive the test
    throw error;
  }
  return { base, child, output: () => output };
}

const credits = (base: string, token: string) => fetch(`${base}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });

describe('API-key cache across two certificate processes', () => {
  let ctx: TestContext;
  let a: ServerProcess;
  let b: ServerProcess;
  let org: TestOrg;

  beforeAll(async () => {
    ctx = createTestContext();
    const started = await Promise.allSettled([startServer(), startServer()]);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) {
      for (const result of started) if (result.status === 'fulfilled') result.value.child.kill('SIGKILL');
      throw failed.reason;
    }
    [a, b] = started.map((result) => (result as PromiseFulfilledResult<ServerProcess>).value) as [ServerProcess, ServerProcess];
    org = newOrg(ctx);
  }, 120_000);
  afterAll(async () => {
    for (const server of [a, b]) server?.child.kill('SIGTERM');
    await ctx.close();
  });

  const admin = (base: string, method: string, pathname: string, body?: unknown) =>
    fetch(`${base}/admin/v1${pathname}`, {
      method,
      headers: { authorization: org.admin(), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function warmKeyInBoth(): Promise<{ id: string; token: string }> {
    const created = await admin(a.base, 'POST', '/api-keys', { name: 'cached' });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; token: string };
    for (const server of [a, b, a, b]) expect((await credits(server.base, key.token)).status).toBe(200);
    return key;
  }

  it.each([
    ['revoked', (id: string) => admin(a.base, 'POST', `/api-keys/${id}/revoke`), 200],
    ['rotated without grace', (id: string) => admin(a.base, 'POST', `/api-keys/${id}/rotate`, { grace_seconds: 0 }), 200],
    ['deleted', (id: string) => admin(a.base, 'DELETE', `/api-keys/${id}`), 204],
  ])('a key %s through one process is refused at the very next request by the other', async (_name, change, status) => {
    for (let round = 0; round < 3; round++) {
      const key = await warmKeyInBoth();
      expect((await change(key.id)).status).toBe(status);
      const next = await credits(b.base, key.token);
      expect(next.status).toBe(401);
      expect(await next.json()).toMatchObject({ code: 'invalid_api_key' });
      expect((await credits(a.base, key.token)).status).toBe(401);
    }
  });

  it('a key changed directly in Postgres (an operator UPDATE) is refused by both processes once the change is announced', async () => {
    const key = await warmKeyInBoth();
    await ctx.db('api_keys').where({ id: key.id }).update({ expires_at: new Date(Date.now() - 1000) });
    // Each process hears the database's notification on its own connection, so one may drop the key a moment before
    // the other: both must drop it, neither may keep answering with the cached key.
    await waitFor(async () => (await credits(b.base, key.token)).status === 401, 'process B to drop the expired key');
    await waitFor(async () => (await credits(a.base, key.token)).status === 401, 'process A to drop the expired key');
    const refused = await credits(a.base, key.token);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'invalid_api_key' });
  });
});

describe('API-key cache in one process', () => {
  let db: Knex;
  let cache: ApiKeyAuthCache;
  let listener: ReturnType<typeof listenForApiKeyChanges>;
  let app: ReturnType<typeof createApp>;
  let org: TestOrg;
  const config = parseConfig(certificateConfigSchema, { DATABASE_URL: runDatabaseUrl(), NODE_ENV: 'test' });
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    db = createDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, 3);
    cache = new ApiKeyAuthCache({ ttlMs: 60_000 });
    listener = listenForApiKeyChanges(config.databaseUrl, CERTIFICATE_SCHEMA, cache, logger);
    await listener.ready;
    const services = buildServices({ db, config, apiKeyCache: cache });
    app = createApp({ db, config, logger, apiKeyCache: cache }, services);
    org = { ...newOrg({ config } as TestContext) };
  });
  afterAll(async () => {
    await listener.close();
    await db.destroy();
  });

  const creditsIn = (token: string) => request(app).get('/api/v1/credits').set('Authorization', `Bearer ${token}`);
  async function newKey() {
    const res = await request(app).post('/admin/v1/api-keys').set('Authorization', org.admin()).send({ name: 'one process' }).expect(201);
    return { id: res.body.id as string, token: res.body.token as string };
  }
  /** Changes the key's row without the trigger firing, as if the notification were lost. */
  async function revokeSilently(id: string) {
    await db.transaction(async (trx) => {
      await trx.raw('alter table api_keys disable trigger api_keys_change_notify');
      await trx('api_keys').where({ id }).update({ status: 'revoked' });
      await trx.raw('alter table api_keys enable trigger api_keys_change_notify');
    });
  }

  it('answers a warm key without reading Postgres, and drops it when its change is notified', async () => {
    const key = await newKey();
    await creditsIn(key.token).expect(200);
    await revokeSilently(key.id);
    await creditsIn(key.token).expect(200); // served from the cache: the silent change was not notified
    await db.raw('select pg_notify(?, ?)', [`${CERTIFICATE_SCHEMA}_api_keys_changed`, key.id]);
    await waitFor(async () => (await creditsIn(key.token)).status === 401, 'the notified key to be refused');
  });

  it('caches nothing while its LISTEN connection is down, and caches again once it is back', async () => {
    const key = await newKey();
    await creditsIn(key.token).expect(200);
    await db.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ? and pid <> pg_backend_pid()`,
      [apiKeyCacheApplicationName(CERTIFICATE_SCHEMA)],
    );
    await waitFor(() => !cache.isLive, 'the cache to notice its lost connection');
    await revokeSilently(key.id);
    await creditsIn(key.token).expect(401); // read from Postgres: nothing stale is served while deaf
    await waitFor(() => cache.isLive, 'the LISTEN connection to come back');
    const other = await newKey();
    await creditsIn(other.token).expect(200);
    expect(cache.size).toBeGreaterThan(0);
  });

  it('answers a revoke only after every other listening process has acknowledged dropping the key', async () => {
    const key = await newKey();
    await creditsIn(key.token).expect(200);
    // A stand-in for a slow replica: it listens under the caches' application name, but acknowledges only when told to.
    const peer = new pg.Client({ connectionString: config.databaseUrl, application_name: apiKeyCacheApplicationName(CERTIFICATE_SCHEMA) });
    await peer.connect();
    const heard: Array<{ channel: string; payload?: string }> = [];
    peer.on('notification', ({ channel, payload }) => heard.push({ channel, payload }));
    try {
      await peer.query(`LISTEN ${apiKeyChangesChannel(CERTIFICATE_SCHEMA)}`);
      await peer.query(`LISTEN ${apiKeyAcksChannel(CERTIFICATE_SCHEMA)}`);
      let answered = false;
      const revoke = request(app)
        .post(`/admin/v1/api-keys/${key.id}/revoke`)
        .set('Authorization', org.admin())
        .then((res) => {
          answered = true;
          return res;
        });
      const ownAck = (payload?: string) => payload?.startsWith(`${key.id}:`) === true;
      await waitFor(() => heard.some((n) => n.channel === apiKeyAcksChannel(CERTIFICATE_SCHEMA) && ownAck(n.payload)), "the service's own acknowledgement");
      expect(heard.some((n) => n.channel === apiKeyChangesChannel(CERTIFICATE_SCHEMA) && n.payload === key.id)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(answered).toBe(false); // still waiting for the stand-in replica
      await peer.query("select pg_notify($1, $2 || ':' || pg_backend_pid())", [apiKeyAcksChannel(CERTIFICATE_SCHEMA), key.id]);
      expect((await revoke).status).toBe(200);
      await creditsIn(key.token).expect(401);
    } finally {
      await peer.end();
    }
  });
});
