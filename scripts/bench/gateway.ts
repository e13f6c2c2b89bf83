/**
 * bench:gateway — the gateway's own cost per proxied request against nginx's, in the same run, on the same upstream
 * (a bare node:http server answering a small JSON). Both proxy GET /api/v1/verify/{code} with an API key over a
 * keep-alive upstream pool; the gateway keeps its Redis rate limiter, request ids and JSON request log line on.
 * CPU per request is read from /proc for the proxy process only. Targets: gateway CPU ≤ 2 × nginx's and
 * requests/s ≥ 0.9 × nginx's. Without nginx (Debian: `apt-get install -y nginx-light`) the anchor is skipped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateApiToken } from '@platform/api-keys';
import { canPin, load, MEASURED_CPU, pinnedCommand, pinSelfToFirstCore, printTable, startProcess, type LoadResult } from './lib';

const PORTS = { upstream: 24001, gateway: 24080, metrics: 24081, nginx: 24090, bare: 24095 };
const PATH = '/api/v1/verify/ABCD-EFGH-JKLM';
const CONNECTIONS = 20;

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
events { worker_connections 1024; }
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

async function measurePid(label: string, url: string, headers: Record<string, string>, pid: number): Promise<LoadResult> {
  // lib's load() measures ChildProcess handles; nginx's worker is a grandchild, so pass a stand-in with its pid.
  return load(label, { url, headers, connections: CONNECTIONS }, [{ pid } as ChildProcess]);
}

async function main() {
  const children: ChildProcess[] = [];
  pinSelfToFirstCore();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-gateway-'));
  try {
    const upstream = await startProcess('scripts/bench/fake-upstream.ts', { PORT: String(PORTS.upstream) }, `http://127.0.0.1:${PORTS.upstream}/`, 0);
    children.push(upstream);
    const gateway = await startProcess(
      'gateway/src/server.ts',
      {
        PORT: String(PORTS.gateway),
        METRICS_PORT: String(PORTS.metrics),
        CERTIFICATE_URL: `http://127.0.0.1:${PORTS.upstream}`,
        MOBILITY_URL: `http://127.0.0.1:${PORTS.upstream}`,
        // The rate limiter stays on (its Redis round trip is part of the cost) with a budget the run cannot spend; request log lines on.
        RATE_LIMIT_PER_MINUTE: '1000000000',
        REDIS_PREFIX: `bench_gateway_${Date.now().toString(36)}`,
        LOG_LEVEL: 'info',
      },
      `http://127.0.0.1:${PORTS.gateway}/healthz`,
      MEASURED_CPU,
    );
    children.push(gateway);
    const headers = { authorization: `Bearer ${generateApiToken('ck_')}` };
    const rows: LoadResult[] = [];
    const binary = nginxBinary();
    let nginx: LoadResult | undefined;
    if (binary) {
      const started = await startNginx(binary, dir);
      children.push(started.master);
      nginx = await measurePid('nginx (same upstream, keep-alive pool)', `http://127.0.0.1:${PORTS.nginx}${PATH}`, headers, started.worker);
      rows.push(nginx);
    } else {
      console.log('nginx is not installed (Debian: apt-get install -y nginx-light): the nginx anchor is SKIPPED, only the gateway is measured.');
    }
    const bare = await startProcess('scripts/bench/bare-proxy.ts', { PORT: String(PORTS.bare), UPSTREAM_PORT: String(PORTS.upstream) }, `http://127.0.0.1:${PORTS.bare}/`, MEASURED_CPU);
    children.push(bare);
    const floor = await measurePid('bare node:http proxy (no limiter, ids, log or metrics)', `http://127.0.0.1:${PORTS.bare}${PATH}`, headers, bare.pid!);
    rows.push(floor);
    bare.kill('SIGTERM');
    const measured = await measurePid('gateway', `http://127.0.0.1:${PORTS.gateway}${PATH}`, headers, gateway.pid!);
    rows.push(measured);
    const ratios: Array<[string, number, number]> = [];
    if (nginx) ratios.push(['gateway / nginx requests/s', measured.requestsPerSecond / nginx.requestsPerSecond, 0.9]);
    printTable(`bench:gateway (${os.cpus().length} cores, ${CONNECTIONS} connections, 5 s each; CPU: the proxy process only${canPin() ? '; the proxy pinned to a core of its own, load generator and upstream on the other' : ''})`, rows, ratios);
    if (nginx?.cpuMicrosPerRequest && measured.cpuMicrosPerRequest) {
      const ratio = measured.cpuMicrosPerRequest / nginx.cpuMicrosPerRequest;
      console.log(`gateway CPU / nginx CPU per request: ${ratio.toFixed(2)} (target ≤ 2) ${ratio <= 2 ? 'OK' : 'ABOVE TARGET'}`);
      if (floor.cpuMicrosPerRequest) console.log(`bare node:http proxy CPU / nginx CPU per request: ${(floor.cpuMicrosPerRequest / nginx.cpuMicrosPerRequest).toFixed(2)} (what node:http alone costs)`);
    }
    if (floor.cpuMicrosPerRequest && measured.cpuMicrosPerRequest) {
      console.log(`gateway CPU / bare node:http proxy CPU per request: ${(measured.cpuMicrosPerRequest / floor.cpuMicrosPerRequest).toFixed(2)} (the gateway's own work)`);
    }
  } finally {
    children.forEach((child) => child.kill('SIGTERM'));
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
