/**
 * Drill: Redis dies (SIGKILL, no persistence) under load and comes back empty. Never the machine's shared Redis: the
 * drill's system runs on a private `redis-server` on a free port, killed and restarted on the same port. BullMQ jobs,
 * dispatch timers and the drivers' GEO index are gone; Postgres still holds every outbox event and delivery, so the
 * relay's sweep re-enqueues deliveries whose job vanished and every event must still arrive. Rides must work again
 * once drivers report their position (as the driver app does all the time). Skipped when `redis-server` is missing.
 */
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import {
  callJson,
  compare,
  freePort,
  hasRedisServer,
  killHard,
  mobilityPartnerKey,
  offset,
  onlineDrivers,
  outboxEventIds,
  query,
  randomCentre,
  registerEndpoint,
  rideTraffic,
  sleep,
  startPrivateRedis,
  startReceiver,
  summarize,
  waitFor,
} from './lib';

const DOWN_MS = Number(process.env.DRILL_REDIS_DOWN_S ?? 3) * 1000;

export async function redisRestartDrill(basePort: number): Promise<DrillResult | null> {
  if (!hasRedisServer()) {
    console.log('  SKIPPED: redis-server is not on PATH (the drill never restarts the shared Redis)');
    return null;
  }
  const port = await freePort();
  let redis = await startPrivateRedis(port);
  const receiver = await startReceiver();
  try {
    const system = await startSystem('drill_redis', basePort, {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_BACKOFF_MS: '500',
      WEBHOOK_MAX_ATTEMPTS: '30',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
      RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
      DISPATCH_TIMEOUT_S: '20',
    });
    try {
      const partner = await mobilityPartnerKey(system, 'drill_redis');
      await registerEndpoint(system, partner, receiver.url);
      const centre = randomCentre();
      const drivers = await onlineDrivers(system, 6, centre);
      const traffic = rideTraffic(system, partner, centre, drivers, 2);
      await sleep(3000);
      // The receiver refuses connections for a moment so that deliveries are waiting in Redis (retry jobs) when it dies.
      await receiver.down();
      await sleep(3000);
      let pending = 0;
      const answersBefore = traffic.createAnswers.length;
      const completedBefore = traffic.driverStats.completed;
      pending = Number((await query<{ n: string }>(system, "select count(*) as n from mobility.webhook_deliveries where status = 'pending'"))[0]!.n);
      await killHard(redis);
      console.log(`  private Redis :${port} SIGKILLed with ${pending} deliveries pending (their jobs die with it); ${receiver.acknowledged.size} events arrived so far`);
      await sleep(DOWN_MS);
      redis = await startPrivateRedis(port);
      await receiver.up();
      const answersDuring = traffic.createAnswers.slice(answersBefore);
      console.log(`  private Redis :${port} restarted, empty; ride creation while it was down: ${summarize(answersDuring) || 'none'}`);
      // Drivers' apps report their position every few seconds; that puts them back in the (empty) GEO index.
      await Promise.all(
        drivers.map(async (d, i) => {
          await callJson(`${system.gateway}/driver/v1/location`, 'POST', d.auth, { ...offset(centre, (i % 5) * 50, 0), heading: 90, speed_kph: 0 });
          await callJson(`${system.gateway}/driver/v1/availability`, 'POST', d.auth, { available: true });
        }),
      );
      const answersAfterStart = traffic.createAnswers.length;
      await sleep(8000);
      const { cancelled } = await traffic.finish(30000);
      const answersAfter = traffic.createAnswers.slice(answersAfterStart);
      const completedAfter = traffic.driverStats.completed - completedBefore;
      const events = await outboxEventIds(system);
      // Deliveries whose job vanished are re-enqueued by the sweep once 30 s overdue.
      await waitFor(() => events.every((id) => receiver.acknowledged.has(id)), 90000, () => `${receiver.acknowledged.size}/${events.length} events arrived`);
      await sleep(1500);
      const { lost, duplicates, arrived, extraRequests } = await compare(system, events, receiver);
      const ridesWork = answersAfter.length > 0 && answersAfter.every((s) => s === 201) && completedAfter > 0;
      return {
        name: 'private Redis SIGKILLed under load, restarted empty',
        sent:
          `${pending} deliveries pending in Redis when it died; ${traffic.rideIds.length} rides created (answers: ${summarize(traffic.createAnswers)}; after the restart: ${summarize(answersAfter)}), ` +
          `${traffic.driverStats.completed} completed (${completedAfter} since the kill), ${cancelled} cancelled at the end; ${events.length} outbox events`,
        arrived: `${arrived} of ${events.length} events answered 2xx by the receiver; ${extraRequests} requests beyond one per event reached it; rides work after the restart: ${ridesWork ? 'yes' : 'NO'}`,
        lost: lost + (ridesWork ? 0 : 1),
        doubleApplied: duplicates,
      };
    } finally {
      await system.stop();
    }
  } finally {
    await killHard(redis);
    await receiver.close().catch(() => undefined);
  }
}
