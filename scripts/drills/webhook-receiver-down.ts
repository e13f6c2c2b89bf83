/**
 * Drill: the partner's webhook receiver refuses connections for a while (DRILL_RECEIVER_DOWN_S, default 20 s; the
 * issue's full version is DRILL_RECEIVER_DOWN_S=60), then comes back. Rides driven through the driver API keep
 * producing events meanwhile. Every outbox event must arrive (by event id) once the receiver is back, and no event
 * may be delivered again after it was answered 2xx.
 */
import { startSystem } from '../system';
import type { DrillResult } from './drill';
import { compare, mobilityPartnerKey, onlineDrivers, outboxEventIds, randomCentre, registerEndpoint, rideTraffic, sleep, startReceiver, summarize, waitFor } from './lib';

const DOWN_S = Number(process.env.DRILL_RECEIVER_DOWN_S ?? 20);
const BACKOFF_MS = 500;

export async function webhookReceiverDownDrill(basePort: number): Promise<DrillResult> {
  const receiver = await startReceiver();
  const system = await startSystem('drill_receiver', basePort, {
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_BACKOFF_MS: String(BACKOFF_MS),
    // 500 ms doubling: attempts 1-9 span 255 s, far more than the outage; the budget is never the limit.
    WEBHOOK_MAX_ATTEMPTS: '30',
    WEBHOOK_TIMEOUT_MS: '2000',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000',
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000',
  });
  try {
    const partner = await mobilityPartnerKey(system, 'drill_receiver');
    await registerEndpoint(system, partner, receiver.url);
    const centre = randomCentre();
    const drivers = await onlineDrivers(system, 6, centre);
    const traffic = rideTraffic(system, partner, centre, drivers, 2);
    await sleep(3000);
    const beforeOutage = receiver.acknowledged.size;
    await receiver.down();
    console.log(`  receiver down for ${DOWN_S} s (${beforeOutage} events arrived before)`);
    await sleep(DOWN_S * 1000);
    const duringOutage = (await outboxEventIds(system)).length - beforeOutage;
    await receiver.up();
    console.log(`  receiver back; about ${duringOutage} events were produced while it was down`);
    await sleep(3000);
    const { cancelled } = await traffic.finish(30000);
    const events = await outboxEventIds(system);
    // After the outage the longest pending backoff is about as long as the outage itself (doubling), plus the sweep.
    const waitMs = DOWN_S * 1000 * 2 + 30000;
    await waitFor(() => events.every((id) => receiver.acknowledged.has(id)), waitMs, () => `${receiver.acknowledged.size}/${events.length} events arrived`);
    await sleep(1500); // a late duplicate would show up here
    const { lost, duplicates, arrived, extraRequests } = await compare(system, events, receiver);
    return {
      name: `webhook receiver down ${DOWN_S} s, then back`,
      sent: `${traffic.rideIds.length} rides created (answers: ${summarize(traffic.createAnswers)}), ${traffic.driverStats.completed} completed by ${drivers.length} drivers, ${cancelled} cancelled at the end; ${events.length} outbox events (${duringOutage} while the receiver was down)`,
      arrived: `${arrived} of ${events.length} events answered 2xx by the receiver; ${extraRequests} requests beyond one per event reached it`,
      lost,
      doubleApplied: duplicates,
    };
  } finally {
    await system.stop();
    await receiver.close().catch(() => undefined);
  }
}
