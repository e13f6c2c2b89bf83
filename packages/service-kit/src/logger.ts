import pino, { type DestinationStream, type Logger } from 'pino';
import { currentLogContext } from './request-context';

export type { Logger };

/** JSON logs on stdout; every line written inside a request carries its request id and trace id. Secrets are redacted by path. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: currentLogContext,
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]', '*.token', '*.secret', '*.security_pin', '*.pin', 'token', 'secret'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
