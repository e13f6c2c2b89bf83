import type { AddressInfo } from 'node:net';
import { closeServer } from '@platform/service-kit/shutdown';
import { createLogger } from '@platform/service-kit/logger';
import { createRedis } from '@platform/service-kit/redis';
import { openServiceDatabase } from '@platform/service-kit/bootstrap';
import { parseConfig } from '@platform/service-kit/config';
import { buildServices, createApp, createDispatchWorker, migrations, MOBILITY_SCHEMA, mobilityConfigSchema } from '@platform/mobility/tooling';

/** The mobility API and its dispatch worker in this process on a loopback port, for the simulator and benchmarks. */
export async function startLocalMobility(env: Record<string, string>) {
  const config = parseConfig(mobilityConfigSchema, { ...process.env, LOG_LEVEL: 'warn', ...env });
  const logger = createLogger('mobility-local', config.LOG_LEVEL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger, 20);
  const redis = createRedis(config.REDIS_URL);
  const workerConnection = createRedis(config.REDIS_URL);
  const services = buildServices({ db, redis, config, logger });
  const app = createApp({ db, redis, config, logger }, services);
  const worker = createDispatchWorker(services.dispatcher, workerConnection, config.REDIS_PREFIX, logger);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    async close() {
      await closeServer(server);
      await worker.close();
      await services.timers.close();
      workerConnection.disconnect();
      redis.disconnect();
      await db.destroy();
    },
  };
}

/** Only loopback targets: the simulator and benchmarks never send load anywhere else. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) {
    process.stderr.write(`refusing to target ${host}: only loopback URLs are allowed\n`);
    process.exit(1);
  }
}
