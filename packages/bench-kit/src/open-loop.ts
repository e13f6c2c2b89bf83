/**
 * An open-loop load generator: requests leave at their scheduled arrival times whatever the answers do (a slow answer
 * never delays the next request), and each latency is counted from the request's intended send time, not from when it
 * left, so a stall of the server or of the generator shows in the latency instead of thinning the load (no coordinated
 * omission). Requests go out through node's HTTP client with a keep-alive agent whose socket limit is far above what a
 * run keeps in flight; the result says how many sockets were opened and whether any request waited for one.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface OpenLoopRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface OpenLoopScenario {
  name: string;
  /** This scenario's share of the arrivals, relative to the other scenarios' (the shares need not sum to 1). */
  share: number;
  request: OpenLoopRequest;
}

/** `even`: one arrival every 1/rate s. `poisson`: exponential gaps with mean 1/rate s (each scenario's stream Poisson too). */
export type Arrivals = 'even' | 'poisson';

export interface OpenLoopOptions {
  /** Origin the request paths are sent to, e.g. `http://127.0.0.1:28080`. */
  url: string;
  /** Arrivals per second, all scenarios together. */
  rate: number;
  seconds: number;
  scenarios: OpenLoopScenario[];
  arrivals?: Arrivals;
  /** Sockets the client may open (512). A request that finds them all busy waits, and is counted in `queuedForSocket`. */
  maxSockets?: number;
  /** An answer not complete this long after its request was sent counts as a timeout (10,000 ms). */
  timeoutMs?: number;
  /** Uniform random numbers in [0, 1) for Poisson gaps and scenario picks (Math.random). */
  random?: () => number;
}

/** Percentiles (ms) of a sorted sample. */
export interface Percentiles {
  count: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
}

export interface OpenLoopScenarioResult {
  name: string;
  /** Arrivals per second scheduled for this scenario. */
  targetPerSecond: number;
  sent: number;
  /** Requests answered with a complete response (any status). */
  answered: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  /** Requests that got no answer, by error code (ECONNREFUSED, ECONNRESET, …), and `timeout`. */
  errors: Record<string, number>;
  /** From the intended send time to the last byte of the answer, over answered requests (ms). */
  latency: Percentiles;
}

export interface OpenLoopResult {
  arrivals: Arrivals;
  /** Wall time from the first intended arrival to the last answer (s). */
  elapsedSeconds: number;
  scenarios: OpenLoopScenarioResult[];
  sent: number;
  answered: number;
  /** Distinct sockets the client opened. */
  socketsOpened: number;
  /** The most requests in flight at once. */
  maxInFlight: number;
  /** Requests that had to wait for a socket because `maxSockets` were all busy (0: the client never queued). */
  queuedForSocket: number;
  maxSockets: number;
  /** How late each request left against its intended time (ms): a high p99 means the generator itself could not keep up. */
  scheduleLag: Percentiles;
}

/** Nearest-rank percentiles of `values` (sorted in place). */
export function percentiles(values: number[]): Percentiles {
  values.sort((a, b) => a - b);
  const at = (q: number): number => (values.length ? values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))]! : 0);
  return { count: values.length, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: values.length ? values[values.length - 1]! : 0 };
}

/** Intended send times (ms from the start) of every arrival in `seconds`. */
export function arrivalTimes(rate: number, seconds: number, arrivals: Arrivals, random: () => number = Math.random): number[] {
  const times: number[] = [];
  const end = seconds * 1000;
  if (rate <= 0) return times;
  if (arrivals === 'even') {
    for (let k = 0; k * (1000 / rate) < end; k++) times.push(k * (1000 / rate));
    return times;
  }
  for (let t = (-Math.log(1 - random()) * 1000) / rate; t < end; t += (-Math.log(1 - random()) * 1000) / rate) times.push(t);
  return times;
}

/**
 * Which scenario each arrival belongs to: for even arrivals a smooth weighted round robin (the scenarios interleaved,
 * each at exactly its share), for Poisson a random pick by share (so each scenario's own stream is Poisson).
 */
function scenarioPicker(shares: number[], arrivals: Arrivals, random: () => number): () => number {
  const total = shares.reduce((sum, share) => sum + share, 0);
  if (arrivals === 'poisson') {
    return () => {
      let draw = random() * total;
      for (let i = 0; i < shares.length; i++) if ((draw -= shares[i]!) < 0) return i;
      return shares.length - 1;
    };
  }
  const current = shares.map(() => 0);
  return () => {
    let best = 0;
    for (let i = 0; i < shares.length; i++) {
      current[i]! += shares[i]!;
      if (current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    return best;
  };
}

interface Tally {
  sent: number;
  answered: number;
  statuses: Record<number, number>;
  errors: Record<string, number>;
  latencies: number[];
}

/** Sends the arrivals of `options` and resolves when every request is answered, failed or timed out. */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const arrivals = options.arrivals ?? 'even';
  const random = options.random ?? Math.random;
  const maxSockets = options.maxSockets ?? 512;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const shareTotal = options.scenarios.reduce((sum, s) => sum + s.share, 0);
  const tallies: Tally[] = options.scenarios.map(() => ({ sent: 0, answered: 0, statuses: {}, errors: {}, latencies: [] }));
  const times = arrivalTimes(options.rate, options.seconds, arrivals, random);
  const pick = scenarioPicker(
    options.scenarios.map((s) => s.share),
    arrivals,
    random,
  );
  const lags: number[] = [];
  const sockets = new WeakSet<object>();
  let socketsOpened = 0;
  let queuedForSocket = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let lastAnswer = 0;
  let start = 0;
  let onIdle: () => void = () => {};

  const settle = (tally: Tally, intended: number, outcome: { status: number } | { error: string }): void => {
    inFlight--;
    lastAnswer = performance.now();
    if ('status' in outcome) {
      tally.answered++;
      tally.statuses[outcome.status] = (tally.statuses[outcome.status] ?? 0) + 1;
      tally.latencies.push(lastAnswer - start - intended);
    } else {
      tally.errors[outcome.error] = (tally.errors[outcome.error] ?? 0) + 1;
    }
    onIdle();
  };

  const send = (index: number, intended: number): void => {
    const scenario = options.scenarios[index]!;
    const tally = tallies[index]!;
    const { body } = scenario.request;
    const headers: Record<string, string | number> = { ...scenario.request.headers };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    lags.push(performance.now() - start - intended);
    tally.sent++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let settled = false;
    const finish = (outcome: { status: number } | { error: string }): void => {
      if (settled) return;
      settled = true;
      settle(tally, intended, outcome);
    };
    const req = http.request({ hostname: target.hostname, port: target.port, method: scenario.request.method, path: scenario.request.path, headers, agent });
    // The agent queues a request (synchronously, in `http.request`) only when all `maxSockets` are busy.
    const waiting = agent.requests as unknown as Record<string, http.ClientRequest[] | undefined>;
    if (Object.values(waiting).some((queue) => queue?.includes(req))) queuedForSocket++;
    req.on('socket', (socket) => {
      if (sockets.has(socket)) return;
      sockets.add(socket);
      socketsOpened++;
    });
    req.setTimeout(timeoutMs, () => {
      finish({ error: 'timeout' });
      req.destroy();
    });
    req.on('response', (res) => {
      res.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
      res.on('end', () => finish({ status: res.statusCode ?? 0 }));
      res.on('close', () => finish({ error: 'aborted' })); // closed before its end (a no-op after it)
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: error.code ?? error.message }));
    req.end(body);
  };

  await new Promise<void>((resolve) => {
    let next = 0;
    onIdle = () => {
      if (next === times.length && inFlight === 0) resolve();
    };
    const tick = (): void => {
      // Every arrival that is due leaves now, however many answers are outstanding; a late tick sends its backlog at once.
      while (next < times.length && times[next]! <= performance.now() - start) {
        send(pick(), times[next]!);
        next++;
      }
      if (next < times.length) setTimeout(tick, Math.max(0, times[next]! - (performance.now() - start)));
      else onIdle();
    };
    start = performance.now();
    tick();
  });
  agent.destroy();

  return {
    arrivals,
    elapsedSeconds: Math.max(0, (lastAnswer || performance.now()) - start) / 1000,
    scenarios: options.scenarios.map((scenario, i) => {
      const tally = tallies[i]!;
      return {
        name: scenario.name,
        targetPerSecond: shareTotal ? (options.rate * scenario.share) / shareTotal : 0,
        sent: tally.sent,
        answered: tally.answered,
        statuses: tally.statuses,
        errors: tally.errors,
        latency: percentiles(tally.latencies),
      };
    }),
    sent: tallies.reduce((sum, t) => sum + t.sent, 0),
    answered: tallies.reduce((sum, t) => sum + t.answered, 0),
    socketsOpened,
    maxInFlight,
    queuedForSocket,
    maxSockets,
    scheduleLag: percentiles(lags),
  };
}
