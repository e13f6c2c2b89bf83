import type { Server } from 'node:http';
import type { Logger } from './logger';

export type Closer = () => Promise<unknown>;

/**
 * On SIGTERM or SIGINT: stop accepting, let in-flight requests finish, then run the closers (queues, pools) in order
 * and exit 0. A second signal, or the deadline, forces exit 1.
 */
export function closeGracefullyOnSignal(logger: Logger, servers: Server[], closers: Closer[], deadlineMs = 10000): void {
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

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
