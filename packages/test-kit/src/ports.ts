import { accessSync, chmodSync, constants, mkdirSync, openSync, closeSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isPortFree } from '@platform/service-kit/listen';

/** How long a handed-out port stays reserved for the process that asked: long enough for a whole system to start. */
const RESERVATION_MS = 15 * 60_000;
export const SHARED_RESERVATIONS_DIR = path.join(os.tmpdir(), 'platform-spawnable-ports');
let reservations: string | undefined;

/**
 * The folder of reservations: one for every user of the machine (mode 1777 like the temp folder itself, so each user
 * creates reservations and only their owner removes one), else, when another user made it without opening it (an older
 * version), one of this user's own.
 */
function reservationsDir(): string {
  if (reservations) return reservations;
  try {
    mkdirSync(SHARED_RESERVATIONS_DIR, { recursive: true });
    try {
      chmodSync(SHARED_RESERVATIONS_DIR, 0o1777); // whatever the umask; only its owner (or root) may, and need only once
    } catch {
      // another user's folder: usable if they opened it
    }
    accessSync(SHARED_RESERVATIONS_DIR, constants.W_OK | constants.X_OK);
    return (reservations = SHARED_RESERVATIONS_DIR);
  } catch {
    const own = `${SHARED_RESERVATIONS_DIR}-${os.userInfo().uid}`;
    mkdirSync(own, { recursive: true, mode: 0o700 });
    return (reservations = own);
  }
}

/**
 * Ports for processes a test spawns. A port the kernel hands out for `listen(0)` comes from its ephemeral range, the same range
 * every outgoing connection (Postgres, Redis, HTTP) takes its source port from: between probing it and the child binding it,
 * a parallel suite's connection can take it ("Port … is already in use"). These come from below that range instead, at random,
 * and only after a probe finds them free on every interface, the way our servers bind.
 *
 * A free port is still free for every other jest worker until the child binds it, which can take a minute while `pnpm start`
 * builds; so each port handed out is also reserved machine-wide (a file created exclusively under the temp folder) for
 * 15 minutes, and no other test process on the machine is handed it meanwhile.
 */
export async function spawnablePort(): Promise<number> {
  const [low, high] = portWindow();
  for (let tries = 0; tries < 200; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if ((await isPortFree(port)) && reservePort(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

/** `count` distinct spawnable ports. */
export async function spawnablePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await spawnablePort());
  return [...ports];
}

function portWindow(): [number, number] {
  let ephemeralLow = 32768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // not Linux: keep the IANA-ish default
  }
  const high = Math.min(ephemeralLow, 32768);
  return [Math.max(10000, high - 12000), high];
}

/** Reserves `port` machine-wide for the test processes of this checkout and others. True when this process now holds `port`'s reservation: none existed, or the one there is older than RESERVATION_MS. */
export function reservePort(port: number): boolean {
  const file = path.join(reservationsDir(), String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(file, 'wx'));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let age: number;
      try {
        age = Date.now() - statSync(file).mtimeMs;
      } catch {
        continue; // removed meanwhile: try to create it again
      }
      if (age < RESERVATION_MS) return false;
      try {
        unlinkSync(file);
      } catch {
        // another process took the stale one first; the exclusive create decides
      }
    }
  }
  return false;
}
