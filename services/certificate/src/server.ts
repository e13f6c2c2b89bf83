import { closeGracefullyOnSignal, exitOnListenError, createLogger, loadConfigOrExit, openServiceDatabase } from '@platform/service-kit';
import { createApp } from './app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from './config';
import { migrations } from './db/migrations';

async function main() {
  const config = loadConfigOrExit(certificateConfigSchema, 'certificate');
  const logger = createLogger('certificate', config.LOG_LEVEL);
  const db = await openServiceDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, migrations, logger);
  const app = createApp({ db, config, logger });
  const server = app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'certificate service listening'));
  exitOnListenError(server, 'certificate', config.PORT);
  server.keepAliveTimeout = 65000;
  closeGracefullyOnSignal(logger, [server], [() => db.destroy()]);
}

void main();
