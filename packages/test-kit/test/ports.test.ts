import { statSync } from 'node:fs';
import { reservePort, SHARED_RESERVATIONS_DIR, spawnablePort } from '../src/ports';

describe('spawnable ports', () => {
  it('hands out a port below the ephemeral range and keeps it reserved against a second ask', async () => {
    const port = await spawnablePort();
    expect(port).toBeGreaterThanOrEqual(10000);
    expect(port).toBeLessThanOrEqual(32768);
    expect(reservePort(port)).toBe(false);
  });

  it('keeps its reservations in a folder every user of the machine may write to (a non-root run after a root one)', async () => {
    await spawnablePort();
    expect(statSync(SHARED_RESERVATIONS_DIR).mode & 0o1777).toBe(0o1777);
  });

  it('two hundred ports asked for at once are all different', async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => spawnablePort()));
    expect(new Set(ports).size).toBe(200);
  });
});
