/**
 * Drill: the Postgres connection pools (10 connections per service process) are exhausted.
 *  1. A burst far above the pool size: DRILL_POOL_BURST (default 400) certificate verifications and half as many ride
 *     creations, all at once.
 *  2. The same burst while the drill holds an ACCESS EXCLUSIVE lock on the tables those requests read and write for
 *     DRILL_POOL_LOCK_S (default 12 s, longer than the pool's 10 s acquire timeout): the first ten requests of each
 *     service hold every connection, the others wait for one and must get a clean 503 `database_busy`.
 * Every request must answer (2xx, or 503 with a JSON error: never a hang, a 500 or a 502/504), and ride creations retried
 * with their Idempotency-Key afterwards must create exactly one ride per key.
 */
import pg from 'pg';
import { startSystem, type RunningSystem } from '../system';
import type { DrillResult } from './drill';
import { adminAuth, callJson, mobilityPartnerKey, must, query, randomCentre, rideBody, sleep, summarize, suffix, type Answer } from './lib';

const BURST = Number(process.env.DRILL_POOL_BURST ?? 400);
const LOCK_S = Number(process.env.DRILL_POOL_LOCK_S ?? 12);

interface Tally {
  verify: number[];
  rides: number[];
  unclean: string[];
}

function clean(answer: Answer): boolean {
  if (answer.status >= 200 && answer.status < 300) return true;
  // A retryable JSON refusal is clean: 503 database_busy from the service, or 429 too_many_in_flight from the gateway's
  // per-address cap (one address sending 400 at once is exactly what that cap sheds).
  return (answer.status === 503 || answer.status === 429) && typeof answer.body.code === 'string';
}

export async function poolExhaustedDrill(basePort: number): Promise<DrillResult> {
  // The gateway's per-address cap is lifted here: this drill is about the services' Postgres pool, not the gateway.
  const system = await startSystem('drill_pool', basePort, { RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000', RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: '1000000', MAX_IN_FLIGHT_PER_CLIENT: '5000' });
  try {
    const org = `drill_pool_${suffix()}`;
    const key = await must(`${system.certificate}/admin/v1/api-keys`, 'POST', adminAuth(org), { name: 'drill' });
    const cert = await must(`${system.certificate}/admin/v1/certificates`, 'POST', adminAuth(org), {
      recipient_name: 'Ada Lovelace',
      program_title: 'Engines',
      issue_date: '2026-05-01',
    });
    const certKey = `Bearer ${key.token as string}`;
    const verifyUrl = `${system.gateway}/api/v1/verify/${cert.verification_code as string}`;
    const partner = await mobilityPartnerKey(system, 'drill_pool');
    const centre = randomCentre();
    const keys: string[] = [];
    const rideIdsByKey = new Map<string, Set<string>>();

    const createRide = async (idempotencyKey: string, t: Tally) => {
      const answer = await callJson(`${system.gateway}/api/v1/rides`, 'POST', partner, rideBody(centre), { 'idempotency-key': idempotencyKey }, 45000);
      t.rides.push(answer.status);
      if (!clean(answer)) t.unclean.push(`ride ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
      if (answer.status === 201) {
        const ids = rideIdsByKey.get(idempotencyKey) ?? new Set<string>();
        ids.add(answer.body.id as string);
        rideIdsByKey.set(idempotencyKey, ids);
      }
      return answer.status;
    };
    const burst = async (t: Tally) => {
      const verifies = Array.from({ length: BURST }, async () => {
        const answer = await callJson(verifyUrl, 'GET', certKey, undefined, {}, 45000);
        t.verify.push(answer.status);
        if (!clean(answer)) t.unclean.push(`verify ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
      });
      const rides = Array.from({ length: Math.round(BURST / 2) }, async () => {
        const k = `drill-pool-${suffix()}`;
        keys.push(k);
        await createRide(k, t);
      });
      await Promise.all([...verifies, ...rides]);
    };

    const plain: Tally = { verify: [], rides: [], unclean: [] };
    let started = Date.now();
    await burst(plain);
    const plainSeconds = (Date.now() - started) / 1000;
    console.log(`  burst: verify ${summarize(plain.verify)}; ride create ${summarize(plain.rides)} (${plainSeconds.toFixed(1)} s)`);

    const locked: Tally = { verify: [], rides: [], unclean: [] };
    const lock = await holdLocks(system, LOCK_S);
    started = Date.now();
    await burst(locked);
    await lock.released;
    const lockedSeconds = (Date.now() - started) / 1000;
    console.log(`  burst with the tables locked ${LOCK_S} s: verify ${summarize(locked.verify)}; ride create ${summarize(locked.rides)} (${lockedSeconds.toFixed(1)} s)`);

    // The partner retries every ride creation that did not get a 201, with the same Idempotency-Key.
    const retry: Tally = { verify: [], rides: [], unclean: [] };
    for (let round = 0; round < 5; round++) {
      const missing = keys.filter((k) => !rideIdsByKey.has(k));
      if (!missing.length) break;
      await Promise.all(missing.map((k) => createRide(k, retry)));
      await sleep(500);
    }
    // And replays a few that did succeed: the same ride must come back.
    await Promise.all(keys.slice(0, 20).map((k) => createRide(k, retry)));
    const rideCount = Number((await query<{ n: string }>(system, 'select count(*) as n from mobility.rides'))[0]!.n);
    const withoutRide = keys.filter((k) => !rideIdsByKey.has(k)).length;
    const keysWithTwoRides = [...rideIdsByKey.values()].filter((ids) => ids.size > 1).length;
    const unclean = [...plain.unclean, ...locked.unclean, ...retry.unclean];
    for (const line of unclean.slice(0, 5)) console.log(`  unclean answer: ${line}`);
    return {
      name: `Postgres pool exhausted (${BURST} verifies + ${BURST / 2} ride creations at once, twice)`,
      sent: `${plain.verify.length + locked.verify.length} verifies, ${keys.length} ride creations with distinct Idempotency-Keys, ${retry.rides.length} retries/replays with the same keys`,
      arrived:
        `unlocked burst: verify ${summarize(plain.verify)}, rides ${summarize(plain.rides)}; locked burst: verify ${summarize(locked.verify)}, rides ${summarize(locked.rides)}; ` +
        `retries: ${summarize(retry.rides)}; ${unclean.length} unclean answers (500, 502, 504, non-JSON or none; 429 and 503 with a code are retryable, so clean); ${rideCount} rides in the database for ${keys.length} keys`,
      lost: unclean.length + withoutRide,
      doubleApplied: keysWithTwoRides + Math.max(0, rideCount - keys.length),
    };
  } finally {
    await system.stop();
  }
}

/** Locks the tables behind verify and ride creation for `seconds`; resolves once the lock is taken, to a promise of its release. */
async function holdLocks(system: RunningSystem, seconds: number): Promise<{ released: Promise<void> }> {
  const client = new pg.Client({ connectionString: system.databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query('lock table certificate.certificates, mobility.rides in access exclusive mode');
  const released = (async () => {
    await sleep(seconds * 1000);
    await client.query('rollback');
    await client.end();
  })();
  return { released };
}
