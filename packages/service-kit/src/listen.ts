import { createServer, type Server } from 'node:net';

/**
 * A port another program holds (or one we may not bind) ends the process with one line naming it and exit 1, never a
 * stack trace from an unhandled 'error' event.
 */
export function exitOnListenError(server: Server, name: string, port: number | string, address?: string): void {
  server.once('error', (error: NodeJS.ErrnoException) => {
    const reason =
      error.code === 'EADDRINUSE'
        ? `port ${port} is already in use by another program: stop it or set PORT`
        : error.code === 'EACCES'
          ? `port ${port} needs privileges this process lacks: choose another PORT`
          : error.code === 'EADDRNOTAVAIL' && address !== undefined
            ? `BIND_ADDRESS ${address} is not an address of this machine: choose one it has, 127.0.0.1 or 0.0.0.0`
            : `cannot listen on port ${port} (${error.code ?? error.message})`;
    process.stderr.write(`${name}: ${reason}.\n`);
    process.exit(1);
  });
}

/** True when nothing listens on `port`: it can be bound the way our servers bind (all interfaces, IPv4 and IPv6). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}
