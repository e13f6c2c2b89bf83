import { createServer } from 'node:http';
import { closeGracefullyOnSignal } from '@platform/service-kit/shutdown';
import { exitOnListenError } from '@platform/service-kit/listen';
import { bufferedStdout, createLogger } from '@platform/service-kit/logger';
import { createMetrics } from '@platform/service-kit/metrics';
import { createRedis } from '@platform/service-kit/redis';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { openServiceDatabase, requireRedis } from '@platform/service-kit/bootstrap';
import { startTracing } from '@platform/service-kit/tracing';
import { startApiKeyCache } from '@platform/api-keys';
import { createApp } from './app';
import { buildServices } from './services';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
import { migrations } from './db/migrations';
import { jobReadsFastLane, partnerJobReads } from './features/jobs';
import { mobilityRouteTable } from './route-table';

async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility');
  const logger = createLogger('mobility', config.LOG_LEVEL, bufferedStdout());
  const tracing = await startTracing('mobility');
  await requireRedis(config.REDIS_URL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger);
  const redis = createRedis(config.REDIS_URL);
  const keyCache = startApiKeyCache(config, MOBILITY_SCHEMA, logger);
  await keyCache?.listener.ready;
  const metrics = createMetrics('mobility');
  const deps = { db, redis, config, logger, apiKeyCache: keyCache?.cache, metrics };
  const services = buildServices(deps);
  const app = createApp(deps, services);
  // A successful read of one ride or delivery skips Express (`pnpm bench:lanes`: it saves ≥ 20 % of the CPU); every
  // other request (and outcome) is the app's.
  const reads = partnerJobReads(services, mobilityRouteTable);
  const laneDeps = { apiKeys: services.apiKeys, organizations: services.organizationRequests, logger, metrics };
  const lanes = jobReadsFastLane({ ...laneDeps, reads }, app);
  const server = createServer(config.FAST_LANES === 'on' ? lanes : app);
  // Registered before the graceful close: open event streams end first, so draining does not wait for them.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void services.telemetry.close());
  server.listen(config.PORT, config.BIND_ADDRESS, () => logger.info({ port: config.PORT, address: config.BIND_ADDRESS }, 'mobility service listening'));
  exitOnListenError(server, 'mobility', config.PORT, config.BIND_ADDRESS);
  server.keepAliveTimeout = 65000;
  closeGracefullyOnSignal(logger, [server], [async () => keyCache?.listener.close(), async () => redis.quit(), () => db.destroy(), () => tracing.shutdown()]);
}

void main();
