import pino from 'pino';
import type { Logger } from '@platform/service-kit/logger';

type LoggerInternals = Record<symbol, unknown> & { isLevelEnabled(level: string): boolean };

/**
 * Writes the proxied requests' `info` lines onto the logger's own stream, in the logger's own format (level, time and
 * bindings as pino writes them, then the fields, then `msg`), with one `JSON.stringify` instead of pino's per-field
 * serialisation, mixin, hooks and redaction: these lines carry fixed fields that are never secret (ids, method, route,
 * status, duration, a key fingerprint), and pino's generic path was the largest share of the gateway's own CPU per
 * proxied request (bench:gateway). Any other line goes through the logger as usual.
 *
 * With `batch` (a stream that buffers itself anyway, as `bufferedStdout` does), the lines of one event-loop turn are
 * handed to the stream as one string at the end of the turn: its cost per write is several times that of a line's
 * bytes. Lines still waiting when the process exits are written (and the stream flushed) on `exit`.
 */
export function requestLineWriter(logger: Logger, { batch = false }: { batch?: boolean } = {}): (fields: Record<string, unknown>, msg: string) => void {
  const internals = logger as unknown as LoggerInternals;
  const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym } = pino.symbols;
  const stream = internals[streamSym] as { write(line: string): unknown } | undefined;
  const levelPrefix = (internals[lsCacheSym] as Record<number, string> | undefined)?.[30];
  const time = internals[timeSym] as (() => string) | undefined;
  const end = internals[endSym];
  if (!stream || typeof levelPrefix !== 'string' || typeof time !== 'function' || typeof end !== 'string') {
    return (fields, msg) => logger.info(fields, msg); // not the pino this was written for: the ordinary path
  }
  const format = (fields: Record<string, unknown>, msg: string) => {
    const body = JSON.stringify(fields);
    // Read per line: a child's bindings are fixed, but pino's `setBindings` may change them.
    const bindings = internals[chindingsSym] as string;
    return `${levelPrefix}${time()}${bindings}${body.length > 2 ? `,${body.slice(1, -1)}` : ''},"msg":${JSON.stringify(msg)}${end}`;
  };
  if (!batch) {
    return (fields, msg) => {
      if (internals.isLevelEnabled('info')) stream.write(format(fields, msg));
    };
  }
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    stream.write(lines.length === 1 ? lines[0]! : lines.join(''));
  };
  process.once('exit', () => {
    try {
      flush();
      (stream as { flushSync?: () => void }).flushSync?.();
    } catch {
      // the stream was already closed at shutdown: nothing more can be written
    }
  });
  return (fields, msg) => {
    if (!internals.isLevelEnabled('info')) return;
    if (pending.length === 0) setImmediate(flush);
    pending.push(format(fields, msg));
  };
}
