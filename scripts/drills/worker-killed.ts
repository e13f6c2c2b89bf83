/**
 * Drill: the mobility worker is SIGKILLed in the middle of a burst of events and a new one is started. Every outbox
 * event must still arrive at the receiver, and none may arrive again after it was answered 2xx.
 * The system runs without its own worker (START_WITHOUT_WORKER) so the drill owns the worker process.
 */
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import {
  callJson,
  compare,
  killHard,
  mobilityPartnerKey,
  offset,
  onlineDrivers,
  outboxEventIds,
  randomCentre,
  registerEndpoint,
  rideBody,
  rideTraffic,
  sleep,
  startReceiver,
  summarize,
  waitFor,
} from './lib';

const BURST = Number(process.env.DRILL_WORKER_BURST ?? 300);
const DOWN_MS = 2000;

export async function workerKilledDrill(basePort: number): Promise<DrillResult> {
  // The receiver takes DRILL_WORKER_RECEIVER_MS (50) to answer, so the kill catches requests in flight.
  const receiver = await startReceiver(Number(process.env.DRILL_WORKER_RECEIVER_MS ?? 50));
  const system = await startSystem('drill_worker', basePort, {
    START_WITHOUT_WORKER: 'true',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_BACKOFF_MS: '500',
    WEBHOOK_MAX_ATTEMPTS: '30',
    // A killed worker's active jobs are handed out again once their lock expires: short, so the drill is short.
    WEBHOOK_JOB_LOCK_MS: '3000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
  });
  try {
    let worker = system.startWorker();
    const firstPid = worker.pid;
    const partner = await mobilityPartnerKey(system, 'drill_worker');
    await registerEndpoint(system, partner, receiver.url);
    const centre = randomCentre();
    const drivers = await onlineDrivers(system, 6, centre);
    const traffic = rideTraffic(system, partner, centre, drivers, 2);
    await sleep(3000);

    // The burst: rides created and cancelled at once by the partner (one ride.cancelled event each), 20 at a time.
    const burstAnswers: number[] = [];
    let next = 0;
    const far = offset(centre, 40_000, 40_000); // no driver near: these stay pending until cancelled
    const burst = Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < BURST) {
          next++;
          const created = await callJson(`${system.gateway}/api/v1/rides`, 'POST', partner, rideBody(far));
          if (created.status !== 201) {
            burstAnswers.push(created.status);
            continue;
          }
          burstAnswers.push((await callJson(`${system.gateway}/api/v1/rides/${created.body.id as string}/cancel`, 'POST', partner, {})).status);
        }
      }),
    );
    const before = receiver.acknowledged.size;
    await waitFor(() => receiver.acknowledged.size >= before + 40 || next >= BURST, 30000);
    const atKill = receiver.acknowledged.size;
    const killedAt = Date.now();
    await killHard(worker);
    console.log(`  SIGKILLed worker ${firstPid} after ${atKill} events arrived (burst at ${next}/${BURST})`);
    await sleep(DOWN_MS);
    worker = system.startWorker();
    console.log(`  started worker ${worker.pid}`);
    await burst;
    const { cancelled } = await traffic.finish(30000);
    const events = await outboxEventIds(system);
    await waitFor(() => events.every((id) => receiver.acknowledged.has(id)), 90000, () => `${receiver.acknowledged.size}/${events.length} events arrived`);
    await sleep(1500);
    const { lost, duplicates, crashRedeliveries, arrived, extraRequests } = await compare(system, events, receiver, killedAt);
    return {
      name: 'worker SIGKILLed mid-burst, new worker started',
      sent: `${BURST} rides created and cancelled in a burst (answers: ${summarize(burstAnswers)}) plus ${traffic.rideIds.length} driven rides (${traffic.driverStats.completed} completed, ${cancelled} cancelled at the end); ${events.length} outbox events`,
      arrived:
        `${arrived} of ${events.length} events answered 2xx by the receiver; ${extraRequests} requests beyond one per event reached it ` +
        `(${crashRedeliveries} repeats of requests in flight at the kill, whose 2xx the dead worker never recorded: the at-least-once window, dropped by receivers by webhook-id); ` +
        `${duplicates} other repeats after a 2xx`,
      lost,
      doubleApplied: duplicates,
    };
  } finally {
    await system.stop();
    await receiver.close().catch(() => undefined);
  }
}
