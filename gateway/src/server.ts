import { existsSync } from 'node:fs';
import { exitOnListenError } from '@platform/service-kit/listen';
import { closeGracefullyOnSignal } from '@platform/service-kit/shutdown';
import { createLogger } from '@platform/service-kit/logger';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { createApp } from './app';
import { gatewayConfigSchema } from './config';
import { createGatewayServer, createRateLimitRedis } from './server-factory';

const config = loadConfigOrExit(gatewayConfigSchema, 'gateway');
// A certificate or key file that is not there ends start-up with one line naming the variable, not a stack trace.
for (const variable of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
  const file = config[variable];
  if (file !== undefined && !existsSync(file)) {
    process.stderr.write(`gateway: ${variable} names a file that does not exist (${file}).\n`);
    process.exit(1);
  }
}
const logger = createLogger('gateway', config.LOG_LEVEL);
const redis = createRateLimitRedis(config.REDIS_URL);
let redisWasUp = true;
redis.on('error', (error: Error) => {
  if (redisWasUp) logger.warn({ err: error.message }, 'rate limiter Redis unreachable; requests pass unlimited until it is back');
  redisWasUp = false;
});
redis.on('ready', () => (redisWasUp = true));
const app = createApp({ config, logger, redis });
const server = createGatewayServer(app, config);
const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
exitOnListenError(server, 'gateway', config.PORT);
server.listen(config.PORT, () => {
  logger.info({ port: config.PORT, scheme, certificate: config.CERTIFICATE_URL, mobility: config.MOBILITY_URL }, 'gateway listening');
});
closeGracefullyOnSignal(logger, [server], [async () => redis.quit()]);
