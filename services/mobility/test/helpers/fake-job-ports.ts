import type { Telemetry } from '../../src/features/fleet/fleet.locations';
import type { Driver } from '../../src/features/fleet/fleet.types';
import type { InMemoryDatabase } from '../../src/features/jobs/in-memory-jobs';
import type { JobEvent, JobLifecyclePorts } from '../../src/features/jobs/job-lifecycle';

/**
 * The life cycle's ports for unit tests over the in-memory job tables: an outbox that rolls back with the fake's
 * transactions, a fleet of `drivers`, positions in `positions`, and a record of what the life cycle asked for.
 */
export function fakeJobPorts(memory: InMemoryDatabase, drivers: Driver[] = []) {
  const outbox: JobEvent[] = [];
  memory.register({
    snapshot() {
      const length = outbox.length;
      return () => void outbox.splice(length);
    },
  });
  const positions = new Map<string, Telemetry>();
  /** `telemetryUnderLock`: positions read while a transaction (and so a row lock) was open. */
  const calls = { findDriver: 0, findDrivers: 0, telemetry: 0, telemetries: 0, telemetryUnderLock: 0 };
  const released: [string, string][] = [];
  const freedAfterCommit: string[] = [];
  const committed: { id: string; status: string; sequence: number }[] = [];
  const byId = new Map(drivers.map((driver) => [driver.id, driver]));

  const ports: JobLifecyclePorts = {
    async appendEvent(_trx, event) {
      outbox.push(structuredClone(event));
    },
    async findDriver(id) {
      calls.findDriver++;
      return byId.get(id);
    },
    async findDrivers(ids) {
      calls.findDrivers++;
      return new Map(ids.flatMap((id) => (byId.has(id) ? [[id, byId.get(id)!] as const] : [])));
    },
    async telemetry(driverId) {
      calls.telemetry++;
      if (memory.inTransaction()) calls.telemetryUnderLock++;
      return positions.get(driverId) ?? null;
    },
    async telemetries(driverIds) {
      calls.telemetries++;
      return new Map(driverIds.flatMap((id) => (positions.has(id) ? [[id, positions.get(id)!] as const] : [])));
    },
    async releaseDriver(_trx, driverId, jobId) {
      released.push([driverId, jobId]);
      return true;
    },
    async withdrawOffers() {
      return [];
    },
    async afterDriverFreed(driverId) {
      freedAfterCommit.push(driverId);
    },
    async statusCommitted(view) {
      committed.push({ id: view.id, status: view.status, sequence: view.sequence });
    },
  };
  return { ports, outbox, positions, calls, released, freedAfterCommit, committed };
}

/** A registered, available driver (or courier) of the platform fleet. */
export function fakeDriver(id: string, kind: Driver['kind'] = 'driver'): Driver {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    id,
    organizationId: 'org_platform',
    name: `Driver ${id}`,
    phone: '+2348030000000',
    kind,
    tier: 'economy',
    vehicle: { make: 'Toyota', model: 'Corolla', plate: 'LND-123-XY', color: 'Silver' },
    rating: 5,
    available: true,
    servesAllPartners: true,
    disabledAt: null,
    currentJobId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A position as the driver app reports it. */
export function fakePosition(lat: number, lng: number): Telemetry {
  return { lat, lng, heading: 90, speed_kph: 20, updated_at: '2026-01-01T00:05:00.000Z' };
}

/** Lets promise callbacks queued after a commit (statusCommitted) run. */
export const settled = () => new Promise((resolve) => setImmediate(resolve));
