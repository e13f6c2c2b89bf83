import { reservePort, spawnablePort } from '../src/ports';

describe('spawnable ports', () => {
  it('hands out a port below the ephemeral range and keeps it reserved against a second ask', async () => {
    const port = await spawnablePort();
    expect(port).toBeGreaterThanOrEqual(10000);
    expect(port).toBeLessThanOrEqual(32768);
    expect(reservePort(port)).toBe(false);
  });

  it('two hundred ports asked for at once are all different', async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => spawnablePort()));
    expect(new Set(ports).size).toBe(200);
  });
});
