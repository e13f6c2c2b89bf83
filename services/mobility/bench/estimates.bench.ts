/**
 * `pnpm bench:estimates`: requests/s of POST /api/v1/estimates (key auth, pricing, GEO ETA per tier, one insert) with
 * autocannon against an in-process service on loopback, and in the same run a baseline (GET /healthz on the same app)
 * so the ratio says what the endpoint costs on this machine. Uses its own database and Redis prefix, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { DEFAULT_DATABASE_URL, dropDatabase, signAdminToken } from '@platform/service-kit';
import { startLocalMobility } from '../scripts/local-service';
import { clearPrefix } from '../scripts/redis-cleanup';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function run(title: string, options: autocannon.Options): Promise<number> {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  const non2xx = result.non2xx + result.errors;
  console.log(`${title.padEnd(28)} ${Math.round(result.requests.average).toLocaleString('en').padStart(8)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms${non2xx ? `   (${non2xx} non-2xx/errors)` : ''}`);
  return result.requests.average;
}

async function main() {
  const suffix = randomBytes(4).toString('hex');
  const database = new URL(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL);
  database.pathname = `/bench_mobility_${suffix}`;
  const service = await startLocalMobility({ DATABASE_URL: database.toString(), MOBILITY_DATABASE_URL: database.toString(), REDIS_PREFIX: `bench_estimates_${suffix}` });
  try {
    const owner = signAdminToken({ sub: 'bench', org: `org_bench_${suffix}`, role: 'owner' }, service.config.JWT_SECRET, { issuer: service.config.JWT_ISSUER });
    const key = await fetch(`${service.url}/admin/v1/api-keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scopes: ['estimates:read'] }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const body = JSON.stringify({ pickup: { lat: 6.5244, lng: 3.3792 }, dropoff: { lat: 6.4281, lng: 3.4219 } });
    console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION_S} s each`);
    const baseline = await run('baseline GET /healthz', { url: `${service.url}/healthz` });
    const estimates = await run('POST /api/v1/estimates', {
      url: `${service.url}/api/v1/estimates`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-KEY': key.token },
      body,
    });
    console.log(`ratio estimates / baseline: ${(estimates / baseline).toFixed(3)}`);
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 1000)); // let requests cut off by autocannon finish
    await service.close();
    await dropDatabase(database.toString());
    await clearPrefix(`bench_estimates_${suffix}`);
  }
}

void main();
