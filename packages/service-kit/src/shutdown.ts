import type { Server as HttpServer } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Logger } from './logger';

type Server = HttpServer | HttpsServer;

export type Closer = () => Promise<unknown>;

/** How long a process may take to drain before it gives up and exits 1; below Kubernetes' default 30 s grace period. */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 20000;

/**
 * On SIGTERM or SIGINT: stop accepting, let in-flight requests finish, then run the closers (queues, pools) in order
 * and exit 0. A second signal, or the deadline, forces exit 1.
 */
export function closeGracefullyOnSignal(logger: Logger, servers: Server[], closers: Closer[], deadlineMs = DEFAULT_SHUTDOWN_DEADLINE_MS): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown deadline passed, exiting');
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    await Promise.all(servers.map(closeServer));
    for (const close of closers) {
      await close().catch((err: unknown) => logger.warn({ err }, 'error while closing'));
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * Stops accepting connections and resolves once every in-flight request has been answered. Keep-alive connections
 * are told to close with their last answer and closed as soon as they fall idle, so a busy client cannot hold the
 * process open.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const onRequest = (_req: unknown, res: { setHeader(name: string, value: string): void; headersSent: boolean }) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    };
    server.on('request', onRequest);
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(sweep);
      server.off('request', onRequest);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Runs `job` now and then every `everyMs` (the timer does not keep the process alive); `stop` clears the timer and
 * waits for a run in progress. `job` handles its own errors.
 */
export function runPeriodically(job: () => Promise<void>, everyMs: number): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = job();
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  run();
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
