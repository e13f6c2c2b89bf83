import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { arrivalTimes, runOpenLoop, type OpenLoopScenario } from '../src/open-loop';

/** A server on loopback that records when each request arrived and answers it after `delayMs(n)` (n counts from 0). */
async function startServer(delayMs: (n: number) => number): Promise<{ url: string; arrivals: { at: number; path: string }[]; close: () => Promise<void> }> {
  const arrivals: { at: number; path: string }[] = [];
  const server = http.createServer((req, res) => {
    const n = arrivals.length;
    arrivals.push({ at: performance.now(), path: req.url ?? '' });
    req.resume();
    req.on('end', () => setTimeout(() => res.end(req.url === '/missing' ? '' : '{}'), delayMs(n)).unref());
    if (req.url === '/missing') res.statusCode = 404;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const one = (path = '/ok'): OpenLoopScenario[] => [{ name: path, share: 1, request: { method: 'GET', path } }];

let servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function server(delayMs: (n: number) => number) {
  const started = await startServer(delayMs);
  servers.push(started);
  return started;
}

describe('runOpenLoop', () => {
  it('keeps sending on schedule while an answer is late (the first takes 500 ms)', async () => {
    const target = await server((n) => (n === 0 ? 500 : 0));
    const start = performance.now();
    const result = await runOpenLoop({ url: target.url, rate: 200, seconds: 1, scenarios: one() });

    expect(target.arrivals).toHaveLength(200);
    expect(result.sent).toBe(200);
    expect(result.scenarios[0]).toMatchObject({ sent: 200, answered: 200, statuses: { 200: 200 }, errors: {} });
    const since = target.arrivals.map((a) => a.at - start);
    // While the first answer is held (until 500 ms at the earliest), the arrivals go on at 200/s: about 100 of them by then.
    expect(since.filter((at) => at < 500 + 100).length).toBeGreaterThanOrEqual(100);
    // The last one arrives at its time (995 ms), not 500 ms later as it would behind the late answer.
    expect(since.at(-1)).toBeGreaterThan(950);
    expect(since.at(-1)).toBeLessThan(1300);
    // Spread 5 ms apart, give or take a busy machine's pauses (the first connections take longer to open).
    const settled = since.filter((at) => at > 200);
    expect(Math.max(...settled.slice(1).map((at, i) => at - settled[i]!))).toBeLessThan(200);
    // The late answer is in the latency, the others are not.
    expect(result.scenarios[0]!.latency.max).toBeGreaterThanOrEqual(500);
    expect(result.scenarios[0]!.latency.p50).toBeLessThan(250);
    expect(result.scheduleLag.p99).toBeLessThan(250);
    expect(result.queuedForSocket).toBe(0);
  });

  it('counts latency from the intended send time: a request the generator sends late carries its lateness', async () => {
    const target = await server(() => 0);
    // The generator's event loop is blocked for 300 ms from 300 ms on: ~60 arrivals fall due meanwhile and leave late.
    setTimeout(() => {
      const until = performance.now() + 300;
      while (performance.now() < until);
    }, 300).unref();
    const result = await runOpenLoop({ url: target.url, rate: 200, seconds: 1, scenarios: one() });

    expect(result.sent).toBe(200);
    expect(result.scenarios[0]!.answered).toBe(200);
    // The server answered each at once; the latency still shows the arrivals that were due during the stall…
    expect(result.scenarios[0]!.latency.max).toBeGreaterThanOrEqual(250);
    expect(result.scenarios[0]!.latency.p99).toBeGreaterThanOrEqual(200);
    // …and so does the generator's own lag: how late each left.
    expect(result.scheduleLag.max).toBeGreaterThanOrEqual(250);
    expect(result.scheduleLag.p99).toBeGreaterThanOrEqual(200);
    // The overdue ones were sent at once when the loop came back, not dropped or spread out.
    const burst = target.arrivals.filter((a, i) => i > 0 && a.at - target.arrivals[i - 1]!.at < 1).length;
    expect(burst).toBeGreaterThanOrEqual(40);
  });

  it('opens a socket for each request in flight and says when requests waited for one', async () => {
    const slow = await server(() => 100);
    const open = await runOpenLoop({ url: slow.url, rate: 200, seconds: 0.5, scenarios: one() });
    expect(open.answered).toBe(100);
    expect(open.queuedForSocket).toBe(0);
    expect(open.maxInFlight).toBeGreaterThanOrEqual(15);
    expect(open.socketsOpened).toBeGreaterThanOrEqual(15);

    const capped = await runOpenLoop({ url: slow.url, rate: 200, seconds: 0.5, scenarios: one(), maxSockets: 4 });
    expect(capped.answered).toBe(100);
    expect(capped.socketsOpened).toBe(4);
    expect(capped.queuedForSocket).toBeGreaterThan(50);
    // Waiting for a socket is latency too: 100 requests through 4 sockets at 100 ms each take 2.5 s.
    expect(capped.scenarios[0]!.latency.max).toBeGreaterThan(1500);
  });

  it('splits the arrivals by share and tallies non-2xx answers by status', async () => {
    const target = await server(() => 0);
    const result = await runOpenLoop({
      url: target.url,
      rate: 200,
      seconds: 0.5,
      scenarios: [
        { name: 'ok', share: 0.3, request: { method: 'POST', path: '/ok', body: '{"a":1}', headers: { 'content-type': 'application/json' } } },
        { name: 'missing', share: 0.1, request: { method: 'GET', path: '/missing' } },
      ],
    });
    expect(result.scenarios.map((s) => [s.name, s.targetPerSecond, s.sent, s.statuses])).toEqual([
      ['ok', 150, 75, { 200: 75 }],
      ['missing', 50, 25, { 404: 25 }],
    ]);
    // Interleaved, not one scenario after the other: about every 4th request is the 1-in-4 scenario.
    const missing = target.arrivals.flatMap((a, i) => (a.path === '/missing' ? [i] : []));
    const apart = missing.slice(1).map((at, i) => at - missing[i]!);
    expect(Math.min(...apart)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...apart)).toBeLessThanOrEqual(6);
  });

  it('counts a request with no answer by its error', async () => {
    const target = await server(() => 0);
    await target.close();
    servers = [];
    const result = await runOpenLoop({ url: target.url, rate: 100, seconds: 0.1, scenarios: one() });
    expect(result.scenarios[0]).toMatchObject({ sent: 10, answered: 0, errors: { ECONNREFUSED: 10 } });
  });
});

describe('arrivalTimes', () => {
  it('spreads even arrivals 1/rate apart', () => {
    expect(arrivalTimes(4, 1, 'even')).toEqual([0, 250, 500, 750]);
  });

  it('draws Poisson arrivals: about rate × seconds of them, with exponential gaps', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const times = arrivalTimes(200, 10, 'poisson', random);
    expect(times.length).toBeGreaterThan(1800);
    expect(times.length).toBeLessThan(2200);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    const sd = Math.sqrt(gaps.reduce((a, b) => a + (b - mean) ** 2, 0) / gaps.length);
    expect(mean).toBeCloseTo(5, 0);
    expect(sd / mean).toBeGreaterThan(0.85); // an exponential's is 1; even arrivals' 0
    expect(sd / mean).toBeLessThan(1.15);
  });
});
