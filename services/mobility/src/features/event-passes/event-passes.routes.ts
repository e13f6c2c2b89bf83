import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { NotFoundError, isIdOf, parseOrThrow } from '@platform/service-kit';
import { latLngSchema } from '../../platform/geo';
import { TIERS } from '../../platform/pricing';
import { partnerIdOf as partnerIdOfKey, requireScope } from '../api-keys';
import { APPLIES_TO } from './event-pass-rules';
import type { EventPassService } from './event-passes.service';

/** Amounts are minor units; the cap keeps every sum of them exact in a JavaScript number. */
const minorUnits = z.number().int().min(1).max(1_000_000_000_000);

export const createProgramSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    venue: latLngSchema.extend({
      radius_m: z.number().int().min(50).max(50_000).meta({ description: 'Pickup or drop-off must be within this many metres of the venue.' }),
      address: z.string().trim().min(1).max(500).optional(),
    }),
    valid_from: z.iso.datetime({ offset: true }),
    valid_until: z.iso.datetime({ offset: true }),
    applies_to: z.enum(APPLIES_TO),
    tiers: z.array(z.enum(TIERS)).min(1).max(TIERS.length),
    max_fare_per_ride: minorUnits.meta({ description: 'The most one ride is covered for, in minor units.' }),
    budget: minorUnits.meta({ description: 'The total the program covers, in minor units.' }),
    rides_per_pass: z.number().int().min(1).max(100),
  })
  .refine((input) => new Date(input.valid_until).getTime() > new Date(input.valid_from).getTime(), { path: ['valid_until'], message: 'must be after valid_from' })
  .meta({
    id: 'NewEventPassProgram',
    examples: [
      {
        name: 'Lagos Tech Fest 2026',
        venue: { lat: 6.4281, lng: 3.4219, radius_m: 500, address: 'Eko Convention Centre, Victoria Island' },
        valid_from: '2026-01-01T00:00:00Z',
        valid_until: '2036-01-01T00:00:00Z',
        applies_to: 'both',
        tiers: ['economy', 'comfort'],
        max_fare_per_ride: 500000,
        budget: 50000000,
        rides_per_pass: 2,
      },
    ],
  });

const attendeeSchema = z.object({
  reference: z.string().trim().min(1).max(200).optional().meta({ description: "The organizer's own reference (ticket number, e-mail)." }),
  name: z.string().trim().min(1).max(200).optional(),
});

export const issuePassesSchema = z
  .object({
    count: z.number().int().min(1).max(1000).optional().meta({ description: 'Passes without attendee details; or send `attendees`.' }),
    attendees: z.array(attendeeSchema).min(1).max(1000).optional().meta({ description: 'One pass per attendee.' }),
  })
  .refine((input) => (input.count === undefined) !== (input.attendees === undefined), { path: ['count'], message: 'send either count or attendees' })
  .meta({ id: 'IssueEventPasses', examples: [{ attendees: [{ reference: 'TICKET-0001', name: 'Ada Obi' }, { reference: 'TICKET-0002' }] }] });

export const eventPassPageSchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  })
  .meta({ id: 'EventPassPageQuery', examples: [{ limit: 100 }] });

function programId(value: unknown): string {
  if (typeof value !== 'string' || !isIdOf('evp', value)) throw new NotFoundError('Event pass program not found');
  return value;
}

export interface EventPassProgramAccess {
  /** The checks for reading and for changing (the partner API's scopes, or the admin API's roles). */
  read: RequestHandler;
  write: RequestHandler;
  /** The organization the request acts for. */
  partnerIdOf: (req: Request) => string;
}

/** `/api/v1/event-pass-programs` (mounted behind API key authentication), or its admin twin with the admin access rules. */
export function eventPassProgramRoutes(
  passes: EventPassService,
  { read, write, partnerIdOf }: EventPassProgramAccess = { read: requireScope('event_passes:read'), write: requireScope('event_passes:write'), partnerIdOf: partnerIdOfKey },
): Router {
  const router = Router();

  router.post('/', write, async (req, res) => {
    res.status(201).json(await passes.createProgram(partnerIdOf(req), parseOrThrow(createProgramSchema, req.body)));
  });
  router.get('/', read, async (req, res) => {
    res.json(await passes.listPrograms(partnerIdOf(req), parseOrThrow(eventPassPageSchema, req.query)));
  });
  router.get('/:id', read, async (req, res) => {
    res.json(await passes.getProgram(partnerIdOf(req), programId(req.params.id)));
  });
  router.post('/:id/close', write, async (req, res) => {
    res.json(await passes.closeProgram(partnerIdOf(req), programId(req.params.id)));
  });
  router.post('/:id/passes', write, async (req, res) => {
    res.status(201).json(await passes.issuePasses(partnerIdOf(req), programId(req.params.id), parseOrThrow(issuePassesSchema, req.body)));
  });
  router.get('/:id/passes', read, async (req, res) => {
    res.json(await passes.listPasses(partnerIdOf(req), programId(req.params.id), parseOrThrow(eventPassPageSchema, req.query)));
  });
  router.post('/:id/passes/:pass_id/revoke', write, async (req, res) => {
    const passId = String(req.params.pass_id);
    if (!isIdOf('evpass', passId)) throw new NotFoundError('Event pass not found');
    res.json(await passes.revokePassById(partnerIdOf(req), programId(req.params.id), passId));
  });
  return router;
}

/** `/api/v1/event-passes/{code}` (mounted behind API key authentication). */
export function eventPassRoutes(passes: EventPassService): Router {
  const router = Router();
  router.post('/:code/revoke', requireScope('event_passes:write'), async (req, res) => {
    res.json(await passes.revokePass(partnerIdOfKey(req), String(req.params.code)));
  });
  return router;
}
