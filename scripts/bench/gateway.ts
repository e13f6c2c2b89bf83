/**
 * bench:gateway — the gateway's own cost per proxied request, in the same run, on the same upstream (a bare node:http
 * server answering a small JSON), beside a bare node:http reverse proxy (Node's own floor) and nginx. All three proxy
 * GET /api/v1/verify/{code} with an API key over a keep-alive upstream pool; the gateway keeps its Redis rate limiter,
 * request ids, metrics and JSON request log line on. CPU per request is read from /proc for the proxy process only.
 * The three are measured in alternating rounds (BENCH_ROUNDS, 3) and each keeps its median round, so a burst of other
 * work on the machine moves one round, not the comparison. Target: gateway CPU per request ≤ 1.5 × the bare
 * node:http proxy's. Then the same three at 1, 50 and 500 connections (BENCH_SCALE_ROUNDS, 2 rounds each): how the cost
 * per request grows with concurrency. Without nginx (Debian: `apt-get install -y nginx-light`) its rows are skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateApiToken } from '@platform/api-keys';
import { alternatingRounds, buildIfStale, canPin, load, MEASURED_CPU, pinnedCommand, pinSelfToFirstCore, printTable, startProcess, warmUp, type LoadResult } from '@platform/bench-kit';

const PORTS = { upstream: 24001, gateway: 24080, metrics: 24081, nginx: 24090, bare: 24095, baseline: 24085, baselineMetrics: 24086 };
const PATH = '/api/v1/verify/ABCD-EFGH-JKLM';
/** The gateway measured: its build (BENCH_GATEWAY_ENTRY=gateway/src/server.ts runs the source through tsx instead). */
const GATEWAY_ENTRY = process.env.BENCH_GATEWAY_ENTRY ?? 'gateway/dist/server.js';
const CONNECTIONS = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SCALE_ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 2);
/** How the cost per request grows with concurrency. */
const SCALE_CONNECTIONS = [1, 50, 500];
/** The gateway's target: its CPU per proxied request at most this many times the bare node:http proxy's. */
const TARGET_VS_BARE = 1.5;

function nginxBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (spawnSync(candidate, ['-v']).status === 0) return candidate;
  }
  return undefined;
}

/** A minimal reverse proxy like the gateway's: keep-alive upstream pool, forwarded headers, an access log line per request. */
function nginxConfig(dir: string): string {
  return `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  upstream service { server 127.0.0.1:${PORTS.upstream}; keepalive 64; }
  server {
    listen 127.0.0.1:${PORTS.nginx};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`;
}

/** nginx with one worker; the worker's pid is the one whose CPU is measured. */
async function startNginx(binary: string, dir: string): Promise<{ master: ChildProcess; worker: number }> {
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(file, nginxConfig(dir));
  const [command, args] = pinnedCommand(binary, ['-c', file, '-p', dir, '-g', 'daemon off;'], MEASURED_CPU);
  const master = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${PORTS.nginx}${PATH}`);
      const children = spawnSync('pgrep', ['-P', String(master.pid)], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
      return { master, worker: Number(children[0] ?? master.pid) };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  master.kill('SIGKILL');
  throw new Error('nginx did not start');
}

async function measurePid(label: string, url: string, headers: Record<string, string>, pid: number, connections = CONNECTIONS): Promise<LoadResult> {
  // lib's load() measures ChildProcess handles; nginx's worker is a grandchild, so pass a stand-in with its pid.
  return load(label, { url, headers, connections }, [{ pid } as ChildProcess]);
}

interface Proxy {
  label: string;
  url: string;
  pid: number;
}

function ratio(a: number | undefined, b: number | undefined): number | undefined {
  return a && b ? a / b : undefined;
}

function fixed(value: number | undefined, digits = 2): string {
  return value === undefined ? '-' : value.toFixed(digits);
}

async function main() {
  const children: ChildProcess[] = [];
  buildIfStale();
  pinSelfToFirstCore();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  try {
    const upstream = await startProcess('scripts/bench/fake-upstream.ts', { PORT: String(PORTS.upstream) }, `http://127.0.0.1:${PORTS.upstream}/`, 0);
    children.push(upstream);
    const gatewayEnv = {
        PORT: String(PORTS.gateway),
        METRICS_PORT: String(PORTS.metrics),
        CERTIFICATE_URL: `http://127.0.0.1:${PORTS.upstream}`,
        MOBILITY_URL: `http://127.0.0.1:${PORTS.upstream}`,
        // The rate limiter stays on (its Redis round trip is part of the cost) with a budget the run cannot spend; request log lines on.
        RATE_LIMIT_PER_MINUTE: '1000000000',
        RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000000',
        // Every connection of the load generator comes from one address: the per-address in-flight cap (256) would
        // refuse the 500-connection rounds with 429s, which cost less than a proxied answer.
        MAX_IN_FLIGHT_PER_CLIENT: '100000',
        REDIS_PREFIX: `bench_gateway_${Date.now().toString(36)}`,
        LOG_LEVEL: 'info',
    };
    // The gateway as `pnpm start` runs it: compiled (tsx's transform adds a name-keeping call to every closure made per request).
    const gateway = await startProcess(GATEWAY_ENTRY, gatewayEnv, `http://127.0.0.1:${PORTS.gateway}/healthz`, MEASURED_CPU);
    children.push(gateway);
    const bare = await startProcess('scripts/bench/bare-proxy.ts', { PORT: String(PORTS.bare), UPSTREAM_PORT: String(PORTS.upstream) }, `http://127.0.0.1:${PORTS.bare}/`, MEASURED_CPU);
    children.push(bare);
    const headers = { authorization: `Bearer ${generateApiToken('ck_')}` };
    const proxies: Proxy[] = [];
    const binary = nginxBinary();
    if (binary) {
      const started = await startNginx(binary, dir);
      children.push(started.master);
      proxies.push({ label: 'nginx (same upstream, keep-alive pool)', url: `http://127.0.0.1:${PORTS.nginx}${PATH}`, pid: started.worker });
    } else {
      console.log('nginx is not installed (Debian: apt-get install -y nginx-light): the nginx rows are SKIPPED.');
    }
    proxies.push({ label: 'bare node:http proxy (no limiter, ids, log or metrics)', url: `http://127.0.0.1:${PORTS.bare}${PATH}`, pid: bare.pid! });
    proxies.push({ label: 'gateway', url: `http://127.0.0.1:${PORTS.gateway}${PATH}`, pid: gateway.pid! });
    // BENCH_GATEWAY_BASELINE=<entry> (another revision's gateway/dist/server.js, say): a fourth row in the same rounds,
    // so a change is measured before and after under the same conditions.
    const baselineEntry = process.env.BENCH_GATEWAY_BASELINE;
    if (baselineEntry) {
      const baseline = await startProcess(baselineEntry, { ...gatewayEnv, PORT: String(PORTS.baseline), METRICS_PORT: String(PORTS.baselineMetrics), REDIS_PREFIX: `${gatewayEnv.REDIS_PREFIX}_baseline` }, `http://127.0.0.1:${PORTS.baseline}/healthz`, MEASURED_CPU);
      children.push(baseline);
      proxies.push({ label: `gateway baseline (${baselineEntry})`, url: `http://127.0.0.1:${PORTS.baseline}${PATH}`, pid: baseline.pid! });
    }
    const measureAll = (connections: number, rounds: number) =>
      alternatingRounds(
        rounds,
        proxies.map((proxy) => () => measurePid(proxy.label, proxy.url, headers, proxy.pid, connections)),
      );
    const byLabel = (results: LoadResult[]) => ({
      nginx: binary ? results[0] : undefined,
      bare: results[binary ? 1 : 0]!,
      gateway: results[binary ? 2 : 1]!,
      baseline: baselineEntry ? results[binary ? 3 : 2] : undefined,
    });

    // A few seconds each before the first round: the gateway's code paths are still being optimised after one (JIT).
    for (const proxy of proxies) for (let second = 0; second < 3; second++) await warmUp({ url: proxy.url, headers, connections: CONNECTIONS });
    const main = byLabel(await measureAll(CONNECTIONS, ROUNDS));
    const rows = [main.nginx, main.bare, main.gateway, main.baseline].filter((row): row is LoadResult => row !== undefined);
    printTable(
      `bench:gateway (${os.cpus().length} cores, ${CONNECTIONS} connections, 5 s per round, ${ROUNDS} alternating rounds, median kept; CPU: the proxy process only${canPin() ? '; the proxy pinned to a core of its own, load generator and upstream on the other' : ''})`,
      rows,
      [],
    );
    // The target is Node's own floor (the bare proxy): nginx is shown beside, without a target.
    if (main.nginx) console.log(`gateway / nginx requests/s: ${(main.gateway.requestsPerSecond / main.nginx.requestsPerSecond).toFixed(2)} (shown beside nginx; no target)`);
    const vsBare = ratio(main.gateway.cpuMicrosPerRequest, main.bare.cpuMicrosPerRequest);
    if (vsBare !== undefined) {
      console.log(`gateway CPU / bare node:http proxy CPU per request: ${vsBare.toFixed(2)} (target ≤ ${TARGET_VS_BARE}) ${vsBare <= TARGET_VS_BARE ? 'OK' : 'ABOVE TARGET'}`);
    }
    if (main.baseline) console.log(`gateway baseline CPU / bare node:http proxy CPU per request: ${fixed(ratio(main.baseline.cpuMicrosPerRequest, main.bare.cpuMicrosPerRequest))}`);
    if (main.nginx) {
      console.log(`gateway CPU / nginx CPU per request: ${fixed(ratio(main.gateway.cpuMicrosPerRequest, main.nginx.cpuMicrosPerRequest))} (shown beside nginx; no target)`);
      console.log(`bare node:http proxy CPU / nginx CPU per request: ${fixed(ratio(main.bare.cpuMicrosPerRequest, main.nginx.cpuMicrosPerRequest))} (what node:http alone costs)`);
    }

    console.log(`\nbench:gateway — CPU µs per proxied request by concurrency (${SCALE_ROUNDS} alternating rounds each, median kept)\n`);
    console.log(`| connections | nginx µs | bare node:http µs | gateway µs | gateway / bare | gateway / nginx | gateway requests/s | gateway p99 ms | gateway non-2xx |${baselineEntry ? ' baseline µs | baseline / bare |' : ''}`);
    console.log(`|---:|---:|---:|---:|---:|---:|---:|---:|---:|${baselineEntry ? '---:|---:|' : ''}`);
    for (const connections of SCALE_CONNECTIONS) {
      const scaled = byLabel(await measureAll(connections, SCALE_ROUNDS));
      console.log(
        `| ${connections} | ${fixed(scaled.nginx?.cpuMicrosPerRequest, 0)} | ${fixed(scaled.bare.cpuMicrosPerRequest, 0)} | ${fixed(scaled.gateway.cpuMicrosPerRequest, 0)} | ` +
          `${fixed(ratio(scaled.gateway.cpuMicrosPerRequest, scaled.bare.cpuMicrosPerRequest))} | ${fixed(ratio(scaled.gateway.cpuMicrosPerRequest, scaled.nginx?.cpuMicrosPerRequest))} | ` +
          `${scaled.gateway.requestsPerSecond.toFixed(0)} | ${scaled.gateway.p99} | ${scaled.gateway.non2xx} |` +
          (scaled.baseline ? ` ${fixed(scaled.baseline.cpuMicrosPerRequest, 0)} | ${fixed(ratio(scaled.baseline.cpuMicrosPerRequest, scaled.bare.cpuMicrosPerRequest))} |` : ''),
      );
    }
  } finally {
    children.forEach((child) => child.kill('SIGTERM'));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
