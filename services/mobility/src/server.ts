import { closeGracefullyOnSignal, exitOnListenError, createLogger, createRedis, loadConfigOrExit, openServiceDatabase, requireRedis } from '@platform/service-kit';
import { startTracing } from '@platform/service-kit/tracing';
import { startApiKeyCache } from '@platform/api-keys';
import { createApp } from './app';
import { MOBILITY_SCHEMA, mobilityConfigSchema } from './config';
import { migrations } from './db/migrations';

async function main() {
  const config = loadConfigOrExit(mobilityConfigSchema, 'mobility');
  const logger = createLogger('mobility', config.LOG_LEVEL);
  const tracing = await startTracing('mobility');
  await requireRedis(config.REDIS_URL);
  const db = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, logger);
  const redis = createRedis(config.REDIS_URL);
  const keyCache = startApiKeyCache(config, MOBILITY_SCHEMA, logger);
  await keyCache?.listener.ready;
  const app = createApp({ db, redis, config, logger, apiKeyCache: keyCache?.cache });
  const server = app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'mobility service listening'));
  exitOnListenError(server, 'mobility', config.PORT);
  server.keepAliveTimeout = 65000;
  closeGracefullyOnSignal(logger, [server], [async () => keyCache?.listener.close(), async () => redis.quit(), () => db.destroy(), () => tracing.shutdown()]);
}

void main();
