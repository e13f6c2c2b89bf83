import { closeGracefullyOnSignal, createLogger, loadConfigOrExit } from '@platform/service-kit';
import { createApp } from './app';
import { gatewayConfigSchema } from './config';

const config = loadConfigOrExit(gatewayConfigSchema, 'gateway');
const logger = createLogger('gateway', config.LOG_LEVEL);
const app = createApp({ config, logger });
const server = app.listen(config.PORT, () => {
  logger.info({ port: config.PORT, certificate: config.CERTIFICATE_URL, mobility: config.MOBILITY_URL }, 'gateway listening');
});
server.keepAliveTimeout = 65000;
closeGracefullyOnSignal(logger, [server], []);
