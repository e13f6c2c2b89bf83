/**
 * bench:verify — GET /api/v1/verify/{code} three ways in one run: through the gateway, direct to the certificate
 * service, and a bare node:http + pg baseline answering the same query for the same key, in alternating rounds (each
 * keeps its median round). Prints requests/s, p99 and the ratios (targets: gateway ≥ 0.75 × direct,
 * service ≥ 0.5 × bare). BENCH_GATEWAY_BASELINE=<entry> adds another gateway build to the same rounds (before/after).
 */
import { createDatabase, dropDatabase, ensureDatabase, migrateLatest } from '@platform/service-kit/db';
import { parseConfig } from '@platform/service-kit/config';
import { buildServices, CERTIFICATE_SCHEMA, certificateConfigSchema, migrations } from '@platform/certificate/tooling';
import { alternatingRounds, buildIfStale, load, warmUp, type LoadResult, MEASURED_CPU, pinSelfToFirstCore, printTable, startProcess } from '@platform/bench-kit';

/** Rounds of bare and direct, alternating; each keeps its median round (BENCH_ROUNDS, 3). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const RATE = process.env.BENCH_VERIFY_RATE ? { overallRate: Number(process.env.BENCH_VERIFY_RATE) } : {};

const PORTS = { service: 23001, gateway: 23080, baseline: 23085, bare: 23099 };
const GATEWAY_TARGET = 0.75;

async function main() {
  buildIfStale();
  pinSelfToFirstCore(); // autocannon stays off the measured server's core
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/partner_platform');
  base.pathname = `/bench_verify_${Date.now().toString(36)}`;
  const databaseUrl = base.toString();
  await ensureDatabase(databaseUrl);
  const db = createDatabase(databaseUrl, CERTIFICATE_SCHEMA, 2);
  const children = [];
  try {
    await migrateLatest(db, CERTIFICATE_SCHEMA, migrations);
    const services = buildServices({ db, config: parseConfig(certificateConfigSchema, { DATABASE_URL: databaseUrl }) });
    await services.organizations.ensureWithUser({ org: 'bench_org', org_name: 'Bench Academy', sub: 'bench_user' });
    const { token } = await services.apiKeys.create({ organizationId: 'bench_org', userId: 'bench_user', name: 'bench' });
    const certificate = await services.certificates.issue('bench_org', {
      recipient_name: 'Ada Lovelace',
      program_title: 'Engines',
      issue_date: '2026-05-01',
    });
    // The organization's request budget stays on (part of the cost measured) with a budget the run cannot spend.
    const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000000' };
    // The service and the gateway run built, as `pnpm start` runs them (BENCH_SERVICE_ENTRY / BENCH_GATEWAY_ENTRY name
    // another entry, a `src/server.ts` to run the source through tsx). The service and the bare baseline each get MEASURED_CPU to themselves while measured (see pinnedCommand); the rest floats.
    const service = await startProcess(process.env.BENCH_SERVICE_ENTRY ?? 'services/certificate/dist/server.js', { ...env, PORT: String(PORTS.service) }, `http://127.0.0.1:${PORTS.service}/healthz`, MEASURED_CPU);
    children.push(service);
    // The rate limiter stays on (its Redis round trip is part of the cost measured) with a budget the run cannot spend.
    const gatewayEnv = (port: number) => ({ PORT: String(port), METRICS_PORT: String(port + 1), CERTIFICATE_URL: `http://127.0.0.1:${PORTS.service}`, RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000000', REDIS_PREFIX: `bench_${port}_${Date.now().toString(36)}` });
    const gatewayProcess = await startProcess(process.env.BENCH_GATEWAY_ENTRY ?? 'gateway/dist/server.js', gatewayEnv(PORTS.gateway), `http://127.0.0.1:${PORTS.gateway}/healthz`);
    children.push(gatewayProcess);
    const baselineEntry = process.env.BENCH_GATEWAY_BASELINE;
    const baselineProcess = baselineEntry ? await startProcess(baselineEntry, gatewayEnv(PORTS.baseline), `http://127.0.0.1:${PORTS.baseline}/healthz`) : undefined;
    if (baselineProcess) children.push(baselineProcess);
    const bareProcess = await startProcess('scripts/bench/bare-verify-server.ts', { ...env, PORT: String(PORTS.bare) }, `http://127.0.0.1:${PORTS.bare}/`, MEASURED_CPU);
    children.push(bareProcess);

    const path = `/api/v1/verify/${certificate.verification_code}`;
    const headers = { authorization: `Bearer ${token}` };
    const bareTarget = { url: `http://127.0.0.1:${PORTS.bare}${path}`, headers, ...RATE };
    const directTarget = { url: `http://127.0.0.1:${PORTS.service}${path}`, headers, ...RATE };
    const gatewayTarget = { url: `http://127.0.0.1:${PORTS.gateway}${path}`, headers, ...RATE };
    const baselineTarget = { url: `http://127.0.0.1:${PORTS.baseline}${path}`, headers, ...RATE };
    const measureBare = () => load('bare node:http + pg (baseline)', bareTarget, [bareProcess]);
    const measureDirect = () => load('certificate service, direct', directTarget, [service]);
    const measureGateway = () => load('through the gateway (CPU: gateway process only)', gatewayTarget, [gatewayProcess]);
    const measureBaseline = () => load(`through the gateway baseline ${baselineEntry} (CPU: that gateway only)`, baselineTarget, [baselineProcess!]);
    // All warm (JIT, pools) before the first measured round.
    await warmUp(bareTarget);
    await warmUp(directTarget);
    await warmUp(gatewayTarget);
    if (baselineProcess) await warmUp(baselineTarget);
    const [bare, direct, gateway, baseline] = (await alternatingRounds(ROUNDS, [measureBare, measureDirect, measureGateway, ...(baselineProcess ? [measureBaseline] : [])])) as [
      LoadResult,
      LoadResult,
      LoadResult,
      LoadResult | undefined,
    ];
    printTable(`bench:verify (${require('node:os').cpus().length} cores, 10 connections, 5 s each, ${ROUNDS} alternating rounds, median kept)`, [bare, direct, gateway, ...(baseline ? [baseline] : [])], [
      ['gateway / direct', gateway.requestsPerSecond / direct.requestsPerSecond, GATEWAY_TARGET],
      ...(baseline ? [['gateway baseline / direct', baseline.requestsPerSecond / direct.requestsPerSecond, GATEWAY_TARGET] as [string, number, number]] : []),
      ['service / bare baseline', direct.requestsPerSecond / bare.requestsPerSecond, 0.5],
    ]);
    if (bare.cpuMicrosPerRequest && direct.cpuMicrosPerRequest && gateway.cpuMicrosPerRequest) {
      // On a CPU-bound machine throughput is inversely proportional to CPU per request, so these ratios predict the
      // requests/s ratios without the noise of whatever else the machine is running.
      const cpuRatio = direct.cpuMicrosPerRequest / bare.cpuMicrosPerRequest;
      console.log(`service CPU / bare CPU per verify: ${cpuRatio.toFixed(2)} (target ≤ 1.5) ${cpuRatio <= 1.5 ? 'OK' : 'ABOVE TARGET'}`);
      console.log(`CPU-based: service / bare baseline ${(bare.cpuMicrosPerRequest / direct.cpuMicrosPerRequest).toFixed(2)}; ` +
        `gateway / direct ${(direct.cpuMicrosPerRequest / (direct.cpuMicrosPerRequest + gateway.cpuMicrosPerRequest)).toFixed(2)} (service CPU / (service + gateway CPU))`);
    }
  } finally {
    children.forEach((child) => child.kill('SIGTERM'));
    await db.destroy();
    await dropDatabase(databaseUrl);
  }
}

void main();
