import pino from 'pino';
import type { Logger } from '@platform/service-kit';

type LoggerInternals = Record<symbol, unknown> & { isLevelEnabled(level: string): boolean };

/**
 * Writes the proxied requests' `info` lines onto the logger's own stream, in the logger's own format (level, time and
 * bindings as pino writes them, then the fields, then `msg`), with one `JSON.stringify` instead of pino's per-field
 * serialisation, mixin, hooks and redaction: these lines carry fixed fields that are never secret (ids, method, route,
 * status, duration, a key fingerprint), and pino's generic path was the largest share of the gateway's own CPU per
 * proxied request (bench:gateway). Any other line goes through the logger as usual.
 */
export function requestLineWriter(logger: Logger): (fields: Record<string, unknown>, msg: string) => void {
  const internals = logger as unknown as LoggerInternals;
  const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym } = pino.symbols;
  const stream = internals[streamSym] as { write(line: string): unknown } | undefined;
  const levelPrefix = (internals[lsCacheSym] as Record<number, string> | undefined)?.[30];
  const time = internals[timeSym] as (() => string) | undefined;
  const end = internals[endSym];
  if (!stream || typeof levelPrefix !== 'string' || typeof time !== 'function' || typeof end !== 'string') {
    return (fields, msg) => logger.info(fields, msg); // not the pino this was written for: the ordinary path
  }
  return (fields, msg) => {
    if (!internals.isLevelEnabled('info')) return;
    const body = JSON.stringify(fields);
    // Read per line: a child's bindings are fixed, but pino's `setBindings` may change them.
    const bindings = internals[chindingsSym] as string;
    stream.write(`${levelPrefix}${time()}${bindings}${body.length > 2 ? `,${body.slice(1, -1)}` : ''},"msg":${JSON.stringify(msg)}${end}`);
  };
}
