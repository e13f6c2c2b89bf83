import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { bufferedStdout, createLogger } from '@platform/service-kit/logger';
import { closeGracefullyOnSignal } from '@platform/service-kit/shutdown';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { createGateway } from './app';
import { exitOnListenError } from '@platform/service-kit/listen';
import { startTracing } from '@platform/service-kit/tracing';
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
// Log lines go out in batches (one write per 4 KiB or 100 ms, not one per request line); pino flushes what is left at exit.
const logger = createLogger('gateway', config.LOG_LEVEL, bufferedStdout());
const tracing = startTracing('gateway');
const redis = createRateLimitRedis(config.REDIS_URL);
let redisWasUp = true;
redis.on('error', (error: Error) => {
  if (redisWasUp) logger.warn({ err: error.message }, 'rate limiter Redis unreachable; requests pass unlimited until it is back');
  redisWasUp = false;
});
redis.on('ready', () => (redisWasUp = true));
const gateway = createGateway({ config, logger, redis, batchLogLines: true });
const server = createGatewayServer(gateway.public, config);
// /metrics and /readyz live on an internal port only, never reachable through the public one.
const internalServer = createServer(gateway.internal);
const scheme = config.TLS_CERT_FILE ? 'https' : 'http';
exitOnListenError(internalServer, 'gateway (internal)', config.METRICS_PORT, config.BIND_ADDRESS);
exitOnListenError(server, 'gateway', config.PORT, config.BIND_ADDRESS);
internalServer.listen(config.METRICS_PORT, config.BIND_ADDRESS, () => {
  logger.info({ port: config.METRICS_PORT, address: config.BIND_ADDRESS }, 'gateway metrics and readiness listening');
  server.listen(config.PORT, config.BIND_ADDRESS, () => {
    logger.info({ port: config.PORT, address: config.BIND_ADDRESS, scheme, certificate: config.CERTIFICATE_URL, mobility: config.MOBILITY_URL }, 'gateway listening');
  });
});
// Registered before the graceful close: open event streams end first, so draining does not wait for them.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => gateway.closeStreams());
closeGracefullyOnSignal(logger, [server, internalServer], [async () => gateway.close(), async () => redis.quit(), async () => (await tracing).shutdown()]);
