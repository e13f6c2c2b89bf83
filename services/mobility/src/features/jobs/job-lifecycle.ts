import { NotFoundError, ValidationError } from '@platform/service-kit/errors';
import { pageOf, type Page } from '@platform/service-kit/pagination';
import type { Knex } from '@platform/service-kit/db';
import type { Driver, Telemetry } from '../fleet';
import type { DispatchJob, JobHandler, JobKind } from '../dispatch';

/** The columns every dispatchable job (ride, delivery) has. */
export interface JobRecord<Status extends string> {
  id: string;
  partner_id: string;
  status: Status;
  sequence: number;
  /** false for test-mode (sandbox) jobs: never dispatched, only moved by the sandbox. */
  livemode: boolean;
  created_at: Date;
}

/** The outbox event a status change appends in its own transaction. */
export interface JobEvent {
  partnerId: string;
  /** The job's mode: test events go to test endpoints only, live ones to live endpoints only. */
  livemode: boolean;
  type: string;
  objectType: 'ride' | 'delivery';
  objectId: string;
  sequence: number;
  data: Record<string, unknown>;
}

/** One kind of job: its table, its state machine and how GET shows it. */
export interface JobKindSpec<Row extends JobRecord<Status>, Status extends string, Action, Lookup extends { id: string }, Change, View> {
  objectType: 'ride' | 'delivery';
  notFoundMessage: string;
  /** One row, optionally scoped by `lookup`; `forUpdate` locks it. */
  find(conn: Knex, lookup: Lookup, options?: { forUpdate?: boolean }): Promise<Row | undefined>;
  /** Writes the status change and bumps the row's event sequence. */
  updateStatus(trx: Knex.Transaction, id: string, change: Change & { status: Status }): Promise<Row>;
  /** The state table: the next status, or a 409 naming the current one. */
  nextStatus(current: Status, action: Action): Status;
  eventType(status: Status): string;
  /** The driver or courier holding the job, if any. */
  assigneeOf(row: Row): string | null;
  present(row: Row, assignee: Driver | undefined, telemetry: Telemetry | null): View;
}

/** What the life cycle needs from outside the job's own feature; services.ts provides it. */
export interface JobLifecyclePorts {
  appendEvent(trx: Knex.Transaction, event: JobEvent): Promise<unknown>;
  findDriver(id: string, conn: Knex): Promise<Driver | undefined>;
  /** Several drivers in one query, for a page of jobs. */
  findDrivers(ids: readonly string[], conn: Knex): Promise<Map<string, Driver>>;
  telemetry(driverId: string): Promise<Telemetry | null>;
  /** Several drivers' positions in one round trip, for a page of jobs. */
  telemetries(driverIds: readonly string[]): Promise<Map<string, Telemetry>>;
  releaseDriver(trx: Knex.Transaction, driverId: string, jobId: string): Promise<boolean>;
  /** Closes the job's open offers in the caller's transaction; answers the drivers they held. */
  withdrawOffers(trx: Knex.Transaction, jobId: string): Promise<string[]>;
  /** After commit: puts a freed driver back into the dispatch index. */
  afterDriverFreed(driverId: string): Promise<void>;
  /** Runs in the status change's transaction, after its event (event passes settle a ride's reservation here). */
  onStatusChange?(trx: Knex.Transaction, change: { objectType: 'ride' | 'delivery'; id: string; status: string }): Promise<void>;
  /** After a change ended a job nobody held yet (still searching) committed: removes its waiting search timers. */
  searchEnded?(job: { id: string; createdAt: Date }): Promise<void>;
  /** After the status change's transaction committed (never after a rollback): the job as GET shows it, for live streams. */
  statusCommitted?(view: Record<string, unknown> & { id: string; status: string; sequence: number }): Promise<void>;
}

/** How the dispatcher moves one kind of job: the status it searches in, and the changes accept and time-out make. */
export interface DispatchRules<Row, Status, Action, Change> {
  kind: JobKind;
  searchingStatus: Status;
  toDispatchJob(row: Row): DispatchJob;
  assign(driverId: string): { action: Action; change: Change };
  giveUp: { action: Action; change: Change };
}

/** A change committed with the drivers it freed, who go back to dispatch only after commit. */
export interface JobOutcome<View> {
  view: View;
  freed: string[];
  /** A live job that ended while still searching: its search timers are removed after commit. */
  searchEnded?: { id: string; createdAt: Date };
}

/**
 * The one life cycle of rides and deliveries: lock the row FOR UPDATE, let the state table decide, write the change and
 * append its outbox event in the same transaction, and free the driver after commit.
 */
export function createJobLifecycle<Row extends JobRecord<Status>, Status extends string, Action, Lookup extends { id: string }, Change, View extends Record<string, unknown>>(
  db: Knex,
  spec: JobKindSpec<Row, Status, Action, Lookup, Change, View>,
  ports: JobLifecyclePorts,
) {
  /**
   * The job as GET shows it, read on `conn`. The assignee's position comes from Redis unless `telemetry` is given: a
   * caller holding the row lock passes the position it read before its transaction, so no lock waits on Redis.
   */
  async function view(conn: Knex, row: Row, telemetry?: Telemetry | null): Promise<View> {
    const assigneeId = spec.assigneeOf(row);
    const assignee = assigneeId ? await ports.findDriver(assigneeId, conn) : undefined;
    const position = telemetry !== undefined ? telemetry : assigneeId ? await ports.telemetry(assigneeId) : null;
    return spec.present(row, assignee, assigneeId ? position : null);
  }

  /** A driver's latest position, for a caller to read before the transaction in which it moves that driver's job. */
  function telemetryOf(driverId: string): Promise<Telemetry | null> {
    return ports.telemetry(driverId);
  }

  /** The job as GET shows it, outside any transaction; 404 when it is not there (or not the caller's). */
  async function get(lookup: Lookup): Promise<View> {
    const row = await spec.find(db, lookup);
    if (!row) throw new NotFoundError(spec.notFoundMessage);
    return view(db, row);
  }

  /**
   * One page of a partner's list from its `limit + 1` rows (the repository's `list`), each shown as GET shows it; rows
   * `undefined` means the cursor is not one of the partner's jobs, a 422 rather than an empty page. The page's
   * assignees are read in one query and their positions in one Redis round trip, whatever the page's length.
   */
  async function page(rows: Row[] | undefined, limit: number): Promise<Page<View>> {
    if (!rows) throw new ValidationError([{ path: 'cursor', message: 'is not a cursor from this list' }]);
    const shown = pageOf(rows, limit, (row) => row);
    const assigneeIds = [...new Set(shown.data.map(spec.assigneeOf).filter((id): id is string => id !== null))];
    const [assignees, positions] = await Promise.all([ports.findDrivers(assigneeIds, db), ports.telemetries(assigneeIds)]);
    const present = (row: Row) => {
      const assigneeId = spec.assigneeOf(row);
      return spec.present(row, assigneeId ? assignees.get(assigneeId) : undefined, assigneeId ? (positions.get(assigneeId) ?? null) : null);
    };
    return { ...shown, data: shown.data.map(present) };
  }

  /** Locks the row for the rest of the transaction; 404 when it is not there (or not the caller's). */
  async function lock(trx: Knex.Transaction, lookup: Lookup): Promise<Row> {
    const row = await spec.find(trx, lookup, { forUpdate: true });
    if (!row) throw new NotFoundError(spec.notFoundMessage);
    return row;
  }

  /**
   * Every status change goes through here: the table decides, the outbox event commits with the change. `telemetry` is
   * the position of whoever holds the job after the change (the driver who accepts or moves it), read before the
   * transaction; null when nobody's position is shown (ending moves, the partner's cancel, the sandbox's stand-ins).
   */
  async function changeStatus(trx: Knex.Transaction, row: Row, action: Action, extra: Change, telemetry: Telemetry | null): Promise<View> {
    const status = spec.nextStatus(row.status, action);
    const updated = await spec.updateStatus(trx, row.id, { ...extra, status });
    const data = await view(trx, updated, telemetry);
    await ports.appendEvent(trx, { partnerId: updated.partner_id, livemode: updated.livemode, type: spec.eventType(status), objectType: spec.objectType, objectId: updated.id, sequence: updated.sequence, data });
    await ports.onStatusChange?.(trx, { objectType: spec.objectType, id: updated.id, status });
    const committed = ports.statusCommitted;
    if (committed) void whenCommitted(trx).then(() => committed({ ...data, id: updated.id, status, sequence: updated.sequence }), () => undefined);
    return data;
  }

  /**
   * A change that ends the job (cancel, complete, deliver, fail): closes open offers and frees whoever held the job. An
   * ended job shows no position, so none is read.
   */
  async function endJob(trx: Knex.Transaction, row: Row, action: Action, extra: Change): Promise<JobOutcome<View>> {
    const result = await changeStatus(trx, row, action, extra, null);
    const freed = await ports.withdrawOffers(trx, row.id);
    const assigneeId = spec.assigneeOf(row);
    if (assigneeId && (await ports.releaseDriver(trx, assigneeId, row.id))) freed.push(assigneeId);
    return { view: result, freed, ...(!assigneeId && row.livemode ? { searchEnded: { id: row.id, createdAt: row.created_at } } : {}) };
  }

  /** Runs `work` in one transaction, then (after commit) returns the freed drivers to dispatch. */
  async function commit(work: (trx: Knex.Transaction) => Promise<JobOutcome<View>>): Promise<View> {
    return afterCommit(await db.transaction(work));
  }

  async function afterCommit(outcome: JobOutcome<View>): Promise<View> {
    for (const driverId of outcome.freed) await ports.afterDriverFreed(driverId);
    // Removing timers that would find the job settled only saves their work: a failure leaves them to run for nothing.
    if (outcome.searchEnded && ports.searchEnded) await ports.searchEnded(outcome.searchEnded).catch(() => undefined);
    return outcome.view;
  }

  /** The dispatcher's handler for this kind of job; services.ts hands it to the dispatcher when it is built. */
  function dispatchHandler(rules: DispatchRules<Row, Status, Action, Change>): JobHandler {
    // Test-mode jobs are never offered to drivers, whatever timer or retry reaches them.
    const searchingJob = (row: Row | undefined) => (row && row.livemode && row.status === rules.searchingStatus ? rules.toDispatchJob(row) : null);
    return {
      kind: rules.kind,
      async lockSearching(trx, id) {
        return searchingJob(await spec.find(trx, { id } as Lookup, { forUpdate: true }));
      },
      async findSearching(conn, id) {
        return searchingJob(await spec.find(conn, { id } as Lookup));
      },
      async assign(trx, id, driverId, telemetry) {
        const { action, change } = rules.assign(driverId);
        return changeStatus(trx, await lock(trx, { id } as Lookup), action, change, telemetry);
      },
      async giveUp(trx, id) {
        const row = await lock(trx, { id } as Lookup);
        await changeStatus(trx, row, rules.giveUp.action, rules.giveUp.change, null);
        return { createdAt: row.created_at };
      },
    };
  }

  return { get, page, view, telemetryOf, lock, changeStatus, endJob, commit, afterCommit, dispatchHandler };
}

export type JobLifecycle<Row extends JobRecord<Status>, Status extends string, Action, Lookup extends { id: string }, Change, View extends Record<string, unknown>> = ReturnType<
  typeof createJobLifecycle<Row, Status, Action, Lookup, Change, View>
>;

/** Settles when the outermost transaction `trx` belongs to commits (rejects when it rolls back). */
function whenCommitted(trx: Knex.Transaction): Promise<unknown> {
  let root = trx;
  while (root.parentTransaction) root = root.parentTransaction;
  return root.executionPromise;
}
