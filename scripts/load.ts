/**
 * `pnpm load`: a mixed load through the gateway at a fixed rate (LOAD_RATE requests/s in all, LOAD_SECONDS long,
 * default 200/s for 60 s), printing throughput, p50/p99/p99.9 latency and non-2xx answers by status for each scenario.
 */
import autocannon from 'autocannon';
import { DEV_JWT_SECRET, signJwt } from '@platform/service-kit';
import { startSystem, type RunningSystem } from './system';

interface Scenario {
  name: string;
  share: number;
  request: autocannon.Request & { path: string };
}

const seconds = Number(process.env.LOAD_SECONDS ?? 60);
const rate = Number(process.env.LOAD_RATE ?? 200);

async function call(url: string, init: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

async function certificateScenarios(system: RunningSystem): Promise<Scenario[]> {
  const admin = `Bearer ${signJwt({ sub: 'load_owner', org: 'load_org', org_name: 'Load Academy', role: 'owner' }, DEV_JWT_SECRET)}`;
  const key = await call(`${system.certificate}/admin/v1/api-keys`, { method: 'POST', headers: { authorization: admin }, body: JSON.stringify({ name: 'load' }) });
  const cert = await call(`${system.certificate}/admin/v1/certificates`, {
    method: 'POST',
    headers: { authorization: admin },
    body: JSON.stringify({ recipient_name: 'Ada Lovelace', program_title: 'Engines', issue_date: '2026-05-01' }),
  });
  const headers = { authorization: `Bearer ${key.token as string}` };
  return [
    { name: 'GET /api/v1/verify/{code}', share: 0.5, request: { method: 'GET', path: `/api/v1/verify/${cert.verification_code as string}`, headers } },
    { name: 'GET /api/v1/credits', share: 0.5, request: { method: 'GET', path: '/api/v1/credits', headers } },
  ];
}

async function main() {
  const system = await startSystem('load', 28080);
  try {
    const scenarios = await certificateScenarios(system);
    const total = scenarios.reduce((sum, s) => sum + s.share, 0);
    console.log(`pnpm load: ${rate} requests/s for ${seconds} s through ${system.gateway}\n`);
    const results = await Promise.all(
      scenarios.map((s) =>
        autocannon({
          url: system.gateway,
          connections: 8,
          duration: seconds,
          overallRate: Math.max(1, Math.round((rate * s.share) / total)),
          requests: [s.request],
        }).then((result) => ({ scenario: s, result })),
      ),
    );
    console.log('| scenario | requests/s | p50 ms | p99 ms | p99.9 ms | non-2xx by status |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const { scenario, result } of results) {
      const codes = Object.entries((result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {})
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, stat]) => `${code}: ${stat.count}`)
        .join(', ');
      console.log(
        `| ${scenario.name} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${result.latency.p99_9} | ${codes || 'none'}${result.errors ? `, errors: ${result.errors}` : ''} |`,
      );
    }
  } finally {
    await system.stop();
  }
}

void main();
