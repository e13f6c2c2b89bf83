/**
 * `pnpm drill`: failure drills against the running system. Each prints what was sent, what arrived and what was
 * lost; the command fails when any drill lost an event or applied a payment or delivery twice.
 * `DRILL_ONLY=<part of a drill's file name>` runs some of them (e.g. `DRILL_ONLY=redis`); `DRILL_BASE_PORT` moves their ports.
 */
import type { DrillResult } from './drills/drill';
import { paymentVerifyTimeoutDrill } from './drills/payment-verify-timeout';
import { webhookReceiverDownDrill } from './drills/webhook-receiver-down';
import { workerKilledDrill } from './drills/worker-killed';
import { redisRestartDrill } from './drills/redis-restart';
import { poolExhaustedDrill } from './drills/pool-exhausted';
import { slowBodyDrill } from './drills/slow-body';
import { documentRendersDrill } from './drills/document-renders';
import { dashboardUploadsDrill } from './drills/dashboard-uploads';
import { workerFrozenDrill } from './drills/worker-frozen';
import { fairShareDrill } from './drills/fair-share';

const drills: Array<{ file: string; run: (basePort: number) => Promise<DrillResult | null> }> = [
  { file: 'payment-verify-timeout', run: paymentVerifyTimeoutDrill },
  { file: 'webhook-receiver-down', run: webhookReceiverDownDrill },
  { file: 'worker-killed', run: workerKilledDrill },
  { file: 'redis-restart', run: redisRestartDrill },
  { file: 'pool-exhausted', run: poolExhaustedDrill },
  { file: 'slow-body', run: slowBodyDrill },
  { file: 'document-renders', run: documentRendersDrill },
  { file: 'dashboard-uploads', run: dashboardUploadsDrill },
  { file: 'worker-frozen', run: workerFrozenDrill },
  { file: 'fair-share', run: fairShareDrill },
];

async function main() {
  const only = process.env.DRILL_ONLY;
  // DRILL_BASE_PORT: where the drills' ports start (each drill takes ten), when another run holds the default ones.
  const basePort = Number(process.env.DRILL_BASE_PORT ?? 29080);
  const results: DrillResult[] = [];
  for (const [i, drill] of drills.entries()) {
    if (only && !drill.file.includes(only)) continue;
    console.log(`\n== ${drill.file}`);
    const started = Date.now();
    let result: DrillResult | null;
    try {
      result = await drill.run(basePort + i * 10);
    } catch (error) {
      // A drill that cannot finish counts as a failure: nothing shows the events arrived.
      console.error(error);
      result = { name: `${drill.file} (did not finish)`, sent: '-', arrived: '-', lost: 1, doubleApplied: 0 };
    }
    if (!result) continue; // skipped (it printed why)
    results.push(result);
    console.log(
      `\n${result.name} (${((Date.now() - started) / 1000).toFixed(0)} s)\n  sent:    ${result.sent}\n  arrived: ${result.arrived}\n  lost: ${result.lost}, double-applied: ${result.doubleApplied}`,
    );
  }
  console.log('\n| drill | lost | double-applied |\n|---|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${r.lost} | ${r.doubleApplied} |`);
  process.exitCode = results.some((r) => r.lost || r.doubleApplied) ? 1 : 0;
}

void main();
