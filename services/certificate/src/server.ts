import { createServer } from 'node:http';
import { closeGracefullyOnSignal, runPeriodically } from '@platform/service-kit/shutdown';
import { exitOnListenError } from '@platform/service-kit/listen';
import { bufferedStdout, createLogger } from '@platform/service-kit/logger';
import { createMetrics } from '@platform/service-kit/metrics';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { openServiceDatabase } from '@platform/service-kit/bootstrap';
import { startTracing } from '@platform/service-kit/tracing';
import { createRedis } from '@platform/service-kit/redis';
import { startApiKeyCache } from '@platform/api-keys';
import { createApp } from './app';
import { CERTIFICATE_SCHEMA, certificateConfigSchema } from './config';
import { migrations } from './db/migrations';
import { buildServices } from './services';
import { createRedisSessionEvents } from './features/accounts/session-events';
import { publicApiFastLane } from './features/verification/public-api.fast-lane';
import { warnAboutPaymentSettings } from './features/payments/payment-settings-warnings';
import { scheduleWebhookBodyRetention } from './features/payments/webhook-body-retention';

async function main() {
  const config = loadConfigOrExit(certificateConfigSchema, 'certificate');
  const logger = createLogger('certificate', config.LOG_LEVEL, bufferedStdout());
  const tracing = await startTracing('certificate');
  warnAboutPaymentSettings(config, logger);
  if (!config.SMTP_URL) logger.warn('SMTP_URL is not set: sign-up, password-reset, invitation and recipient mails cannot be sent (sign-up and invitations answer 503 mail_unavailable; password resets are logged; recipient mails are recorded failed)');
  const db = await openServiceDatabase(config.databaseUrl, CERTIFICATE_SCHEMA, migrations, logger);
  const keyCache = startApiKeyCache(config, CERTIFICATE_SCHEMA, logger);
  await keyCache?.listener.ready;
  const sessionEvents = config.REDIS_URL ? createRedisSessionEvents(config.REDIS_URL, config.REDIS_PREFIX, logger) : undefined;
  // The organizations' request budget is shared by every process through Redis when there is one.
  const redis = config.REDIS_URL ? createRedis(config.REDIS_URL) : undefined;
  const services = buildServices({ db, config, apiKeyCache: keyCache?.cache, sessionEvents, logger, redis });
  const metrics = createMetrics('certificate');
  const app = createApp({ db, config, logger, apiKeyCache: keyCache?.cache, metrics, sessionEvents, redis }, services);
  // The two hot partner reads skip Express when they succeed; every other request (and outcome) is the app's.
  const lane = publicApiFastLane({ apiKeys: services.apiKeys, publicApi: services.publicApi, organizations: services.organizationRequests, logger, metrics }, app);
  const server = createServer(config.FAST_LANES === 'on' ? lane : app);
  server.listen(config.PORT, config.BIND_ADDRESS, () => logger.info({ port: config.PORT, address: config.BIND_ADDRESS }, 'certificate service listening'));
  exitOnListenError(server, 'certificate', config.PORT, config.BIND_ADDRESS);
  server.keepAliveTimeout = 65000;
  const retention = scheduleWebhookBodyRetention(db, config.PAYMENT_WEBHOOK_RETENTION_DAYS, logger);
  // Recipient mails a stopped process left pending are sent by the next sweep (at start, then every 5 minutes).
  const recipientSweep = runPeriodically(
    () =>
      services.recipientDeliveries.sweep().then(
        (sent) => void (sent > 0 && logger.info({ deliveries: sent }, 'pending recipient mails sent')),
        (err: unknown) => logger.error({ err }, 'recipient mail sweep failed'),
      ),
    5 * 60 * 1000,
  );
  closeGracefullyOnSignal(logger, [server], [retention.stop, recipientSweep.stop, () => services.recipientDeliveries.idle(), () => services.documents.close(), () => services.apiKeys.flushUsage(), async () => keyCache?.listener.close(), async () => sessionEvents?.close(), async () => void (await redis?.quit()), () => db.destroy(), () => tracing.shutdown()]);
}

void main();
