import { closeGracefullyOnSignal, exitOnListenError, createLogger, loadConfigOrExit, openServiceDatabase } from '@platform/service-kit';
import { startTracing } from '@platform/service-kit/tracing';
import { createApp } from './app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from './config';
import { migrations } from './db/migrations';
import { buildServices } from './services';
import { warnAboutPaymentSettings } from './features/payments/payment-settings-warnings';
import { scheduleWebhookBodyRetention } from './features/payments/webhook-body-retention';

async function main() {
  const config = loadConfigOrExit(certificateConfigSchema, 'certificate');
  const logger = createLogger('certificate', config.LOG_LEVEL);
  const tracing = await startTracing('certificate');
  warnAboutPaymentSettings(config, logger);
  const db = await openServiceDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, migrations, logger);
  const services = buildServices({ db, config });
  const app = createApp({ db, config, logger }, services);
  const server = app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'certificate service listening'));
  exitOnListenError(server, 'certificate', config.PORT);
  server.keepAliveTimeout = 65000;
  const retention = scheduleWebhookBodyRetention(db, config.PAYMENT_WEBHOOK_RETENTION_DAYS, logger);
  closeGracefullyOnSignal(logger, [server], [retention.stop, () => services.apiKeys.flushUsage(), () => db.destroy(), () => tracing.shutdown()]);
}

void main();
