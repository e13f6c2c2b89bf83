import { ConflictError, NotFoundError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import type { LatLng } from '../../platform/geo';
import { CURRENCY, type Tier } from '../../platform/pricing';
import { newPassCode, normalizePassCode, passCodeHash } from './event-pass-code';
import { coveredAmount, insideWindow, matchesVenue, passRefused, type AppliesTo } from './event-pass-rules';
import { presentPass, presentProgram, presentRedemption, type PassView, type ProgramView } from './event-passes.presenter';
import type { EventPassesRepository, PassRow, ProgramRow } from './event-passes.repository';
import type { RideStatus } from '../rides';

export interface CreateProgramInput {
  name: string;
  venue: LatLng & { radius_m: number; address?: string };
  valid_from: string;
  valid_until: string;
  applies_to: AppliesTo;
  tiers: Tier[];
  max_fare_per_ride: number;
  budget: number;
  rides_per_pass: number;
}

export interface IssuePassesInput {
  count?: number;
  attendees?: { reference?: string; name?: string }[];
}

export interface Page {
  limit: number;
  cursor?: string;
}

/** The webhook event types a program's changes emit. */
export const EVENT_PASS_EVENT_TYPES = ['event_pass.redeemed', 'event_pass.released', 'event_pass_program.budget_exhausted'] as const;

/** The outbox event the program's changes append in the caller's transaction (services.ts gives the outbox). */
export interface ProgramEvent {
  partnerId: string;
  type: (typeof EVENT_PASS_EVENT_TYPES)[number];
  objectType: 'event_pass_program';
  objectId: string;
  sequence: number;
  data: Record<string, unknown>;
}

export interface EventPassDeps {
  db: Knex;
  repository: EventPassesRepository;
  appendEvent(trx: Knex.Transaction, event: ProgramEvent): Promise<unknown>;
}

/** What a ride asks of its pass when it is created (in the ride's transaction). */
export interface RidePassRequest {
  partnerId: string;
  code: string;
  rideId: string;
  tier: Tier;
  pickup: LatLng;
  dropoff: LatLng;
  fare: { amount: number; currency: string };
}

const PROGRAM_NOT_FOUND = 'Event pass program not found';

/** The program's view with its usage (passes issued, rides redeemed), read on `conn`. */
async function programView(repo: EventPassesRepository, conn: Knex, program: ProgramRow): Promise<ProgramView> {
  const usage = await repo.programUsage(conn, [program.id]);
  return presentProgram(program, usage.get(program.id)!);
}

/** The program's rules a ride must meet: its window, its venue (at the pickup, the drop-off or either) and its tiers. */
function checkProgramRules(program: ProgramRow, ride: RidePassRequest): void {
  if (!insideWindow({ validFrom: program.valid_from, validUntil: program.valid_until }, new Date())) {
    throw passRefused('event_pass_outside_window', `The pass is valid from ${program.valid_from.toISOString()} until ${program.valid_until.toISOString()}`);
  }
  const venue = { lat: program.venue_lat, lng: program.venue_lng, radiusMeters: program.venue_radius_m };
  if (!matchesVenue(venue, program.applies_to, ride)) {
    const where = { to_venue: 'the drop-off', from_venue: 'the pickup', both: 'the pickup or the drop-off' }[program.applies_to];
    throw passRefused('event_pass_venue_mismatch', `The pass needs ${where} within ${program.venue_radius_m} m of the venue`);
  }
  if (!program.tiers.includes(ride.tier)) throw passRefused('event_pass_tier_not_allowed', `The pass covers the tiers ${program.tiers.join(', ')}`);
}

/** The organizer's side: programs created, listed, closed; passes issued, listed, revoked. */
function programAdministration({ db, repository: repo }: Pick<EventPassDeps, 'db' | 'repository'>) {
  async function ownProgram(partnerId: string, id: string): Promise<ProgramRow> {
    const program = await repo.findProgram(db, partnerId, id);
    if (!program) throw new NotFoundError(PROGRAM_NOT_FOUND);
    return program;
  }

  async function ownPassByCode(partnerId: string, code: string): Promise<PassRow | undefined> {
    const normalized = normalizePassCode(code);
    return normalized ? repo.findPassByHash(db, partnerId, passCodeHash(normalized)) : undefined;
  }

  return {
    async createProgram(partnerId: string, input: CreateProgramInput): Promise<ProgramView> {
      const program = await repo.insertProgram({
        id: newId('evp'),
        partner_id: partnerId,
        name: input.name,
        venue_lat: input.venue.lat,
        venue_lng: input.venue.lng,
        venue_radius_m: input.venue.radius_m,
        venue_address: input.venue.address ?? null,
        valid_from: new Date(input.valid_from),
        valid_until: new Date(input.valid_until),
        applies_to: input.applies_to,
        tiers: [...new Set(input.tiers)],
        max_fare_per_ride: input.max_fare_per_ride,
        budget: input.budget,
        currency: CURRENCY,
        rides_per_pass: input.rides_per_pass,
      });
      return presentProgram(program, { passes_issued: 0, rides_redeemed: 0 });
    },

    async listPrograms(partnerId: string, page: Page) {
      const rows = await repo.listPrograms(partnerId, page.limit, page.cursor);
      const data = rows.slice(0, page.limit);
      const usage = await repo.programUsage(db, data.map((row) => row.id));
      const hasMore = rows.length > page.limit;
      return { data: data.map((row) => presentProgram(row, usage.get(row.id)!)), has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
    },

    async getProgram(partnerId: string, id: string): Promise<ProgramView> {
      return programView(repo, db, await ownProgram(partnerId, id));
    },

    /** Stops new redemptions; rides already holding a reservation keep it and settle as usual. Closing twice is a no-op. */
    async closeProgram(partnerId: string, id: string): Promise<ProgramView> {
      return db.transaction(async (trx) => {
        const program = await repo.findProgram(trx, partnerId, id, { forUpdate: true });
        if (!program) throw new NotFoundError(PROGRAM_NOT_FOUND);
        return programView(repo, trx, program.status === 'closed' ? program : await repo.closeProgram(trx, id));
      });
    },

    async issuePasses(partnerId: string, programId: string, input: IssuePassesInput): Promise<{ data: PassView[] }> {
      const program = await ownProgram(partnerId, programId);
      if (program.status === 'closed') throw new ConflictError('The program is closed', 'event_pass_program_closed');
      const attendees = input.attendees ?? Array.from({ length: input.count ?? 0 }, () => ({}) as { reference?: string; name?: string });
      const rows = attendees.map((attendee) => {
        const code = newPassCode();
        return {
          id: newId('evpass'),
          program_id: program.id,
          partner_id: partnerId,
          code,
          code_hash: passCodeHash(normalizePassCode(code)!),
          attendee_reference: attendee.reference ?? null,
          attendee_name: attendee.name ?? null,
          rides_allowed: program.rides_per_pass,
        };
      });
      const passes = await db.transaction((trx) => repo.insertPasses(trx, rows));
      return { data: passes.map(presentPass) };
    },

    async listPasses(partnerId: string, programId: string, page: Page) {
      await ownProgram(partnerId, programId);
      const rows = await repo.listPasses(programId, page.limit, page.cursor);
      const data = rows.slice(0, page.limit);
      const hasMore = rows.length > page.limit;
      return { data: data.map(presentPass), has_more: hasMore, next_cursor: hasMore ? data[data.length - 1]!.id : null };
    },

    /** A revoked pass takes no new rides; a ride already under way keeps its reservation. Revoking twice is a no-op. */
    async revokePass(partnerId: string, code: string): Promise<PassView> {
      const pass = await ownPassByCode(partnerId, code);
      if (!pass) throw new NotFoundError('Event pass not found');
      return presentPass(await repo.revokePass(pass.id));
    },

    /** The dashboard's revoke: a pass of this program by its id (the organizer need not have kept the code). */
    async revokePassById(partnerId: string, programId: string, passId: string): Promise<PassView> {
      await ownProgram(partnerId, programId);
      const pass = await repo.findPassById(passId);
      if (!pass || pass.program_id !== programId || pass.partner_id !== partnerId) throw new NotFoundError('Event pass not found');
      return presentPass(pass.status === 'revoked' ? pass : await repo.revokePass(pass.id));
    },
  };
}

/**
 * The rides' side: a ride created with a pass reserves one of its rides and the covered amount of the program's
 * budget; the ride's end spends or releases them. Every change appends its event in the ride's transaction.
 */
function rideRedemptions({ repository: repo, appendEvent }: Pick<EventPassDeps, 'repository' | 'appendEvent'>) {
  /** The budget ran out (nothing left to cover): the one `budget_exhausted` event, the first time only. */
  async function noteExhausted(trx: Knex.Transaction, program: ProgramRow): Promise<void> {
    if (program.budget - program.budget_reserved - program.budget_spent > 0) return;
    const marked = await repo.markBudgetExhausted(trx, program.id);
    if (!marked) return;
    await appendEvent(trx, {
      partnerId: marked.partner_id,
      type: 'event_pass_program.budget_exhausted',
      objectType: 'event_pass_program',
      objectId: marked.id,
      sequence: marked.sequence,
      data: await programView(repo, trx, marked),
    });
  }

  return {
    /**
     * In the ride's transaction: checks every rule, takes one ride from the pass and reserves the covered amount from
     * the budget, both with conditional UPDATEs, so concurrent rides can neither overdraw the budget nor over-use a pass.
     * Locks in one order (pass, then program) like the release, so they never deadlock.
     */
    async reserveForRide(trx: Knex.Transaction, ride: RidePassRequest): Promise<{ passId: string; covered: number }> {
      const normalized = normalizePassCode(ride.code);
      const pass = normalized ? await repo.findPassByHash(trx, ride.partnerId, passCodeHash(normalized)) : undefined;
      if (!pass) throw passRefused('event_pass_not_found', 'No pass has this code');
      if (pass.status === 'revoked') throw passRefused('event_pass_revoked', 'The pass has been revoked');
      const program = (await repo.findProgram(trx, ride.partnerId, pass.program_id))!;
      if (program.status === 'closed') throw passRefused('event_pass_program_closed', 'The pass program is closed');
      checkProgramRules(program, ride);

      const used = await repo.useOneRide(trx, pass.id);
      if (!used) throw passRefused('event_pass_used_up', `The pass has no rides left (${pass.rides_allowed} per pass)`);

      // The program row is locked from here to commit: the budget left read now is the one the UPDATE checks again.
      const locked = (await repo.findProgram(trx, ride.partnerId, program.id, { forUpdate: true }))!;
      if (locked.status === 'closed') throw passRefused('event_pass_program_closed', 'The pass program is closed');
      const covered = coveredAmount(ride.fare.amount, locked.max_fare_per_ride, locked.budget - locked.budget_reserved - locked.budget_spent);
      if (covered <= 0) throw passRefused('event_pass_budget_exhausted', 'The program has no budget left');
      const reserved = await repo.reserveBudget(trx, locked.id, covered);
      if (!reserved) throw passRefused('event_pass_budget_exhausted', 'The program has no budget left');

      const redemption = await repo.insertRedemption(trx, { ride_id: ride.rideId, pass_id: pass.id, program_id: locked.id, amount: covered, currency: locked.currency });
      await appendEvent(trx, {
        partnerId: ride.partnerId,
        type: 'event_pass.redeemed',
        objectType: 'event_pass_program',
        objectId: locked.id,
        sequence: reserved.sequence,
        data: presentRedemption(redemption, used, 'pending'),
      });
      await noteExhausted(trx, reserved);
      return { passId: pass.id, covered };
    },

    /**
     * In the status change's transaction: a completed ride turns its reservation into spend; a cancelled or
     * `no_drivers_available` ride releases it and gives the pass its ride back. Other changes leave it alone.
     */
    async settleRide(trx: Knex.Transaction, ride: { id: string; status: string }): Promise<void> {
      const outcome = ride.status === 'completed' ? 'spent' : ride.status === 'cancelled' || ride.status === 'no_drivers_available' ? 'released' : undefined;
      if (!outcome) return;
      const open = await repo.lockOpenRedemption(trx, ride.id);
      if (!open) return;
      const redemption = await repo.settleRedemption(trx, ride.id, outcome);
      if (outcome === 'spent') {
        await repo.settleBudget(trx, open.program_id, open.amount, 'spent');
        return;
      }
      const pass = await repo.giveRideBack(trx, open.pass_id);
      const program = await repo.settleBudget(trx, open.program_id, open.amount, 'released');
      await appendEvent(trx, {
        partnerId: program.partner_id,
        type: 'event_pass.released',
        objectType: 'event_pass_program',
        objectId: program.id,
        sequence: program.sequence,
        // The ride lifecycle reports the ride's own status here.
        data: presentRedemption(redemption, pass, ride.status as RideStatus),
      });
    },
  };
}

/** Event pass programs: the organizer's administration of programs and passes, and the rides that redeem them. */
export function createEventPassService(deps: EventPassDeps) {
  return { ...programAdministration(deps), ...rideRedemptions(deps) };
}

export type EventPassService = ReturnType<typeof createEventPassService>;
