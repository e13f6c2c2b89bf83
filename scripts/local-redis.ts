/**
 * The Redis `pnpm start` runs itself when nothing answers at the default Redis URL, none was configured and
 * `redis-server` is on PATH: 127.0.0.1 only, nothing written to disk (`--save "" --appendonly no`), its own process
 * group (a Ctrl-C reaches only the starter, which stops it after the services).
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pingRedis } from '@platform/service-kit/redis';
import { localServer, untilServing, type LocalServer } from './embedded-postgres';

/** The `redis-server` executable on PATH, or undefined. */
export function redisServerOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'redis-server');
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Starts `redisServer` on 127.0.0.1:`port` and answers once it answers PING. */
export async function startLocalRedis(redisServer: string, port: number): Promise<LocalServer> {
  const server = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir()], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  server.on('error', () => undefined); // reported below as "did not start"
  const url = `redis://127.0.0.1:${port}`;
  const answers = () => pingRedis(url, 1000).then(() => true, () => false);
  await untilServing(server, answers, 30000, (last) => `redis-server did not start: ${last}`);
  return localServer(url, server, 'SIGTERM');
}
