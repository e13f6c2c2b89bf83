import type { Knex } from '@platform/service-kit/db';
import type { AppliesTo } from './event-pass-rules';
import type { Tier } from '../../platform/pricing';

export interface ProgramRow {
  id: string;
  partner_id: string;
  name: string;
  venue_lat: number;
  venue_lng: number;
  venue_radius_m: number;
  venue_address: string | null;
  valid_from: Date;
  valid_until: Date;
  applies_to: AppliesTo;
  tiers: Tier[];
  max_fare_per_ride: number;
  budget: number;
  currency: string;
  rides_per_pass: number;
  budget_reserved: number;
  budget_spent: number;
  status: 'open' | 'closed';
  closed_at: Date | null;
  budget_exhausted_at: Date | null;
  sequence: number;
  created_at: Date;
  updated_at: Date;
}

export interface PassRow {
  id: string;
  program_id: string;
  partner_id: string;
  code_hash: string;
  code: string;
  attendee_reference: string | null;
  attendee_name: string | null;
  rides_allowed: number;
  rides_used: number;
  status: 'active' | 'revoked';
  revoked_at: Date | null;
  created_at: Date;
}

export interface RedemptionRow {
  ride_id: string;
  pass_id: string;
  program_id: string;
  amount: number;
  currency: string;
  status: 'reserved' | 'spent' | 'released';
  created_at: Date;
  settled_at: Date | null;
}

export interface ProgramUsage {
  passes_issued: number;
  rides_redeemed: number;
}

export type NewProgramRow = Omit<ProgramRow, 'budget_reserved' | 'budget_spent' | 'status' | 'closed_at' | 'budget_exhausted_at' | 'sequence' | 'created_at' | 'updated_at'>;
export type NewPassRow = Omit<PassRow, 'rides_used' | 'status' | 'revoked_at' | 'created_at'>;

/** bigint columns arrive as strings; amounts stay far below 2^53. */
function program(row: ProgramRow | undefined): ProgramRow | undefined {
  return row && { ...row, budget: Number(row.budget), budget_reserved: Number(row.budget_reserved), budget_spent: Number(row.budget_spent) };
}

interface CountRow {
  program_id: string;
  n: string;
}

/** Event pass programs, their passes and the rides' redemptions; budget and redemption changes run in the caller's transaction (`trx`), reads that may too take its connection (`conn`). */
export interface EventPassesRepository {
  insertProgram(row: NewProgramRow): Promise<ProgramRow>;
  findProgram(conn: Knex, partnerId: string, id: string, options?: { forUpdate?: boolean }): Promise<ProgramRow | undefined>;
  /** The partner's programs after `cursor` (by id), one more than `limit` to tell whether there is a next page. */
  listPrograms(partnerId: string, limit: number, cursor?: string): Promise<ProgramRow[]>;
  /** Passes issued and rides redeemed (reserved or spent, not released) per program. */
  programUsage(conn: Knex, programIds: string[]): Promise<Map<string, ProgramUsage>>;
  closeProgram(trx: Knex, id: string): Promise<ProgramRow>;
  /**
   * Reserves `amount` of the budget: a conditional UPDATE that only succeeds on an open program whose reserved plus spent
   * plus `amount` stays within the budget (the CHECK constraint stands behind it). Also bumps the event sequence.
   */
  reserveBudget(trx: Knex.Transaction, id: string, amount: number): Promise<ProgramRow | undefined>;
  /** Moves a ride's reservation to spend (completed) or back to the budget (released); released bumps the event sequence. */
  settleBudget(trx: Knex.Transaction, id: string, amount: number, outcome: 'spent' | 'released'): Promise<ProgramRow>;
  /** Marks the budget exhausted the first time only (answers the row then, else undefined); bumps the event sequence. */
  markBudgetExhausted(trx: Knex.Transaction, id: string): Promise<ProgramRow | undefined>;
  insertPasses(trx: Knex.Transaction, rows: NewPassRow[]): Promise<PassRow[]>;
  findPassByHash(conn: Knex, partnerId: string, codeHash: string): Promise<PassRow | undefined>;
  listPasses(programId: string, limit: number, cursor?: string): Promise<PassRow[]>;
  revokePass(id: string): Promise<PassRow>;
  /** Takes one ride from an active pass: a conditional UPDATE that never lets `rides_used` pass `rides_allowed`. */
  useOneRide(trx: Knex.Transaction, id: string): Promise<PassRow | undefined>;
  giveRideBack(trx: Knex.Transaction, id: string): Promise<PassRow>;
  findPassById(id: string): Promise<PassRow | undefined>;
  insertRedemption(trx: Knex.Transaction, row: Omit<RedemptionRow, 'status' | 'created_at' | 'settled_at'>): Promise<RedemptionRow>;
  /** The ride's reservation still open, locked for the rest of the transaction. */
  lockOpenRedemption(trx: Knex.Transaction, rideId: string): Promise<RedemptionRow | undefined>;
  settleRedemption(trx: Knex.Transaction, rideId: string, status: 'spent' | 'released'): Promise<RedemptionRow>;
}

/** The Postgres event pass tables. */
export function createEventPassesRepository(db: Knex): EventPassesRepository {
  return {
    async insertProgram(row) {
      const [inserted] = await db('event_pass_programs').insert(row).returning('*');
      return program(inserted as ProgramRow)!;
    },
    async findProgram(conn, partnerId, id, options = {}) {
      const query = conn('event_pass_programs').where({ id, partner_id: partnerId });
      if (options.forUpdate) query.forUpdate();
      return program(await query.first());
    },
    async listPrograms(partnerId, limit, cursor) {
      const query = db('event_pass_programs').where({ partner_id: partnerId }).orderBy('id').limit(limit + 1);
      if (cursor) query.andWhere('id', '>', cursor);
      return ((await query) as ProgramRow[]).map((row) => program(row)!);
    },
    async programUsage(conn, programIds) {
      const usage = new Map<string, ProgramUsage>(programIds.map((id) => [id, { passes_issued: 0, rides_redeemed: 0 }]));
      if (!programIds.length) return usage;
      const passes: CountRow[] = await conn('event_passes').whereIn('program_id', programIds).groupBy('program_id').select('program_id', conn.raw('count(*) as n'));
      for (const row of passes) usage.get(row.program_id)!.passes_issued = Number(row.n);
      const rides: CountRow[] = await conn('event_pass_redemptions').whereIn('program_id', programIds).whereNot({ status: 'released' }).groupBy('program_id').select('program_id', conn.raw('count(*) as n'));
      for (const row of rides) usage.get(row.program_id)!.rides_redeemed = Number(row.n);
      return usage;
    },
    async closeProgram(trx, id) {
      const [row] = await trx('event_pass_programs').where({ id }).update({ status: 'closed', closed_at: trx.fn.now(), updated_at: trx.fn.now() }).returning('*');
      return program(row as ProgramRow)!;
    },
    async reserveBudget(trx, id, amount) {
      const [row] = await trx('event_pass_programs')
        .where({ id, status: 'open' })
        .andWhereRaw('budget_reserved + budget_spent + ? <= budget', [amount])
        .update({ budget_reserved: trx.raw('budget_reserved + ?', [amount]), sequence: trx.raw('sequence + 1'), updated_at: trx.fn.now() })
        .returning('*');
      return program(row as ProgramRow | undefined);
    },
    async settleBudget(trx, id, amount, outcome) {
      const change =
        outcome === 'spent'
          ? { budget_reserved: trx.raw('budget_reserved - ?', [amount]), budget_spent: trx.raw('budget_spent + ?', [amount]) }
          : { budget_reserved: trx.raw('budget_reserved - ?', [amount]), sequence: trx.raw('sequence + 1') };
      const [row] = await trx('event_pass_programs').where({ id }).update({ ...change, updated_at: trx.fn.now() }).returning('*');
      return program(row as ProgramRow)!;
    },
    async markBudgetExhausted(trx, id) {
      const [row] = await trx('event_pass_programs')
        .where({ id })
        .whereNull('budget_exhausted_at')
        .update({ budget_exhausted_at: trx.fn.now(), sequence: trx.raw('sequence + 1') })
        .returning('*');
      return program(row as ProgramRow | undefined);
    },
    async insertPasses(trx, rows) {
      return (await trx('event_passes').insert(rows).returning('*')) as PassRow[];
    },
    async findPassByHash(conn, partnerId, codeHash) {
      return conn('event_passes').where({ code_hash: codeHash, partner_id: partnerId }).first();
    },
    async listPasses(programId, limit, cursor) {
      const query = db('event_passes').where({ program_id: programId }).orderBy('id').limit(limit + 1);
      if (cursor) query.andWhere('id', '>', cursor);
      return query;
    },
    async revokePass(id) {
      const [row] = await db('event_passes').where({ id }).update({ status: 'revoked', revoked_at: db.raw('coalesce(revoked_at, now())') }).returning('*');
      return row as PassRow;
    },
    async useOneRide(trx, id) {
      const [row] = await trx('event_passes').where({ id, status: 'active' }).andWhereRaw('rides_used < rides_allowed').update({ rides_used: trx.raw('rides_used + 1') }).returning('*');
      return row as PassRow | undefined;
    },
    async giveRideBack(trx, id) {
      const [row] = await trx('event_passes').where({ id }).update({ rides_used: trx.raw('rides_used - 1') }).returning('*');
      return row as PassRow;
    },
    async findPassById(id) {
      return db('event_passes').where({ id }).first();
    },
    async insertRedemption(trx, row) {
      const [inserted] = await trx('event_pass_redemptions').insert({ ...row, status: 'reserved' }).returning('*');
      return inserted as RedemptionRow;
    },
    async lockOpenRedemption(trx, rideId) {
      return trx('event_pass_redemptions').where({ ride_id: rideId, status: 'reserved' }).forUpdate().first();
    },
    async settleRedemption(trx, rideId, status) {
      const [row] = await trx('event_pass_redemptions').where({ ride_id: rideId }).update({ status, settled_at: trx.fn.now() }).returning('*');
      return row as RedemptionRow;
    },
  };
}
