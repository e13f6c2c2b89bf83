/**
 * Terminal 1 of `pnpm start`: one short line per request for people (time, process, method, route, status, ms), the
 * health and readiness checks left out; the processes' JSON lines as before with LOG_FORMAT=json (and in production).
 */
import { logFormatOf } from '../../scripts/dev-log';
import { freePorts, pnpmStart } from './helpers/pnpm-start';
import { startSystem, type StartedSystem } from './helpers/started-system';

jest.setTimeout(300000);

/** What the terminal shows after the banner, once the processes' buffered log lines are out (100 ms batches). */
async function linesAfterBanner(system: StartedSystem): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const output = system.output();
  return output.slice(output.indexOf('Press Ctrl-C to stop.')).split('\n').slice(1).filter(Boolean);
}

/** A few probes like the starter's and a load balancer's, then one partner request the gateway refuses (no key). */
async function probesThenOneRequest(system: StartedSystem): Promise<void> {
  for (let i = 0; i < 3; i++) expect((await fetch(`${system.gatewayUrl}/healthz`)).status).toBe(200);
  expect((await fetch(`http://127.0.0.1:${system.ports.GATEWAY_METRICS_PORT}/readyz`)).status).toBe(200);
  expect((await fetch(`${system.gatewayUrl}/api/v1/credits`)).status).toBe(401);
}

describe('pnpm start in development', () => {
  let system: StartedSystem;
  beforeAll(async () => {
    system = await startSystem('dev_logs', { LOG_LEVEL: 'info', LOG_FORMAT: undefined, NODE_ENV: 'development' });
  });
  afterAll(async () => system?.stop());

  it('prints one short line per request, and no health or readiness check', async () => {
    await probesThenOneRequest(system);
    const lines = await linesAfterBanner(system);
    // One line from each process the request passed: the gateway and, behind it, the certificate service.
    expect(lines.filter((line) => line.includes('/api/v1/credits')).sort((a, b) => a.slice(9).localeCompare(b.slice(9)))).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d certificate GET \/api\/v1\/credits 401 \d+(\.\d)? ms$/),
      expect.stringMatching(/^\d\d:\d\d:\d\d gateway {5}GET \/api\/v1\/credits 401 \d+(\.\d)? ms$/),
    ]);
    expect(lines.filter((line) => /healthz|readyz/.test(line))).toEqual([]);
    expect(lines.filter((line) => line.includes('{"'))).toEqual([]);
  });
});

describe('pnpm start with LOG_FORMAT=json', () => {
  let system: StartedSystem;
  beforeAll(async () => {
    system = await startSystem('json_logs', { LOG_LEVEL: 'info', LOG_FORMAT: 'json', NODE_ENV: 'development' });
  });
  afterAll(async () => system?.stop());

  it("prints the processes' JSON lines, every request with its ids, health checks included", async () => {
    await probesThenOneRequest(system);
    const gatewayLines = (await linesAfterBanner(system))
      .filter((line) => line.startsWith('[gateway] {'))
      .map((line) => JSON.parse(line.slice('[gateway] '.length)) as Record<string, unknown>);
    expect(gatewayLines.filter((line) => line.route === '/api/v1/credits')).toEqual([
      expect.objectContaining({ service: 'gateway', msg: 'request', method: 'GET', status: 401, request_id: expect.any(String), duration_ms: expect.any(Number) }),
    ]);
    expect(gatewayLines.filter((line) => line.route === '/healthz').length).toBeGreaterThanOrEqual(3);
  });

  it('is the default with NODE_ENV=production, and an unknown LOG_FORMAT stops pnpm start with one line', async () => {
    expect([logFormatOf({ NODE_ENV: 'production' }), logFormatOf({ NODE_ENV: 'production', LOG_FORMAT: 'pretty' }), logFormatOf({}), logFormatOf({ LOG_FORMAT: 'JSON' })]).toEqual(['json', 'pretty', 'pretty', 'json']);
    const refused = pnpmStart({ ...(await freePorts()), LOG_FORMAT: 'yaml' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('LOG_FORMAT must be pretty or json (got "yaml")');
  });
});
