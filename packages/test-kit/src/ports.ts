import { readFileSync } from 'node:fs';
import { isPortFree } from '@platform/service-kit/listen';

/**
 * Ports for processes a test spawns. A port the kernel hands out for `listen(0)` comes from its ephemeral range, the same range
 * every outgoing connection (Postgres, Redis, HTTP) takes its source port from: between probing it and the child binding it,
 * a parallel suite's connection can take it ("Port … is already in use"). These come from below that range instead, at random,
 * and only after a probe finds them free on every interface, the way our servers bind.
 */
export async function spawnablePort(): Promise<number> {
  const [low, high] = portWindow();
  for (let tries = 0; tries < 200; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await isPortFree(port)) return port;
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
