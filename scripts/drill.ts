/**
 * `pnpm drill`: failure drills against the running system. Each prints what was sent, what arrived and what was
 * lost; the command fails when any drill lost an event or applied a payment twice.
 */
import type { DrillResult } from './drills/drill';
import { paymentVerifyTimeoutDrill } from './drills/payment-verify-timeout';

const drills: Array<(basePort: number) => Promise<DrillResult>> = [paymentVerifyTimeoutDrill];

async function main() {
  const results: DrillResult[] = [];
  for (const [i, drill] of drills.entries()) {
    const result = await drill(29080 + i * 10);
    results.push(result);
    console.log(`\n${result.name}\n  sent:    ${result.sent}\n  arrived: ${result.arrived}\n  lost: ${result.lost}, double-applied: ${result.doubleApplied}`);
  }
  console.log('\n| drill | lost | double-applied |\n|---|---:|---:|');
  for (const r of results) console.log(`| ${r.name} | ${r.lost} | ${r.doubleApplied} |`);
  process.exitCode = results.some((r) => r.lost || r.doubleApplied) ? 1 : 0;
}

void main();
