/**
 * Drill: the mobility worker is frozen (SIGSTOP) for DRILL_FREEZE_S seconds (60) while a partner keeps creating and
 * cancelling rides (DRILL_FROZEN_RATE a second, 10), then thawed (SIGCONT). Every outbox event must reach the
 * receiver exactly once, and every event produced before the thaw within DRILL_FROZEN_CATCH_UP_S (10) seconds of it.
 * The freeze outlasts the BullMQ job lock (30 s by default), so the jobs active at the freeze are handed out again at
 * the thaw while the thawed worker finishes them: the claim lease is what keeps them from going twice.
 */
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import { callJson, compare, mobilityPartnerKey, outboxEventIds, randomCentre, registerEndpoint, rideBody, sleep, startReceiver, summarize, waitFor } from './lib';

const FREEZE_MS = Number(process.env.DRILL_FREEZE_S ?? 60) * 1000;
const RATE = Number(process.env.DRILL_FROZEN_RATE ?? 10);
const CATCH_UP_MS = Number(process.env.DRILL_FROZEN_CATCH_UP_S ?? 10) * 1000;

export async function workerFrozenDrill(basePort: number): Promise<DrillResult> {
  const receiver = await startReceiver();
  const system = await startSystem('drill_frozen', basePort, {
    START_WITHOUT_WORKER: 'true', // the drill owns the worker, to freeze it
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
  });
  const worker = system.startWorker();
  try {
    const partner = await mobilityPartnerKey(system, 'drill_frozen');
    await registerEndpoint(system, partner, receiver.url);
    const far = randomCentre(); // no driver anywhere: each ride waits, its dispatch timers scheduled, until cancelled

    // A partner creating and cancelling rides at RATE a second (one ride.cancelled event each) from start to end.
    const answers: number[] = [];
    let producing = true;
    const producer = (async () => {
      const started = Date.now();
      for (let n = 0; producing; n++) {
        const due = started + (n * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        void (async () => {
          const created = await callJson(`${system.gateway}/api/v1/rides`, 'POST', partner, rideBody(far));
          if (created.status !== 201) return answers.push(created.status);
          answers.push((await callJson(`${system.gateway}/api/v1/rides/${created.body.id as string}/cancel`, 'POST', partner, {})).status);
        })();
      }
    })();

    // Deliveries under way when the freeze comes.
    if (!(await waitFor(() => receiver.acknowledged.size >= 3 * RATE, 60000))) throw new Error('the worker delivered nothing within 60 s of its start');
    worker.kill('SIGSTOP');
    console.log(`  SIGSTOP worker ${worker.pid} for ${FREEZE_MS / 1000} s (${receiver.acknowledged.size} events arrived so far)`);
    await sleep(FREEZE_MS);
    const beforeThaw = await outboxEventIds(system); // every event committed while the worker was frozen, and before
    const thawedAt = Date.now();
    worker.kill('SIGCONT');
    console.log(`  SIGCONT: ${beforeThaw.length - receiver.acknowledged.size} of ${beforeThaw.length} events still to deliver`);
    const caughtUp = await waitFor(() => beforeThaw.every((id) => receiver.acknowledged.has(id)), CATCH_UP_MS);
    const lastArrival = Math.max(...beforeThaw.map((id) => receiver.acknowledgedAt.get(id) ?? Infinity));
    const late = beforeThaw.filter((id) => (receiver.acknowledgedAt.get(id) ?? Infinity) > thawedAt + CATCH_UP_MS).length;
    await sleep(3000); // traffic after the thaw goes on for a moment
    producing = false;
    await producer;
    await sleep(1000); // the last calls answered
    const events = await outboxEventIds(system);
    await waitFor(() => events.every((id) => receiver.acknowledged.has(id)), 60000, () => `${receiver.acknowledged.size}/${events.length} events arrived`);
    await sleep(1500); // a late repeat would show now
    const { lost, duplicates, arrived, extraRequests } = await compare(system, events, receiver);
    const catchUp = caughtUp ? `all within ${((lastArrival - thawedAt) / 1000).toFixed(1)} s of the thaw` : `${late} later than ${CATCH_UP_MS / 1000} s after the thaw`;
    return {
      name: `worker frozen (SIGSTOP) for ${FREEZE_MS / 1000} s while events are produced, then SIGCONT`,
      sent: `rides created and cancelled at ${RATE}/s (answers: ${summarize(answers)}); ${events.length} outbox events, ${beforeThaw.length} of them before the thaw`,
      arrived: `${arrived} of ${events.length} events answered 2xx by the receiver; of the ${beforeThaw.length} made before the thaw, ${catchUp}; ${extraRequests} requests beyond one per event, ${duplicates} of them after a 2xx`,
      // An event of the freeze that arrives later than the catch-up window counts as lost: the promise is 10 s.
      lost: lost + late,
      // Nothing crashed: every request beyond one per event counts, not only those after a 2xx.
      doubleApplied: extraRequests,
    };
  } finally {
    worker.kill('SIGCONT'); // a frozen worker cannot stop
    await system.stop();
    await receiver.close().catch(() => undefined);
  }
}
