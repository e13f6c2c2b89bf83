import { z } from 'zod';
import { pageQueryFields } from '@platform/service-kit/pagination';
import { vehicleResponse } from '../fleet/fleet.schema';

/** What the jobs feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const assignedDriverResponse = z.object({
  id: z.string().regex(/^drv_/),
  name: z.string(),
  phone: z.string(),
  rating: z.number(),
  vehicle: vehicleResponse,
}).meta({ id: 'AssignedDriver' });

/** What a partner sends: the query of a job list. */

// Kept a string here (no transform), so the description shows the query's example; jobListFilter makes it a Date.
const instant = (description: string) => z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional().meta({ description });

/** `?status=&created_after=&created_before=&limit=&cursor=` of a job list (rides, deliveries), named `id` in the description. */
export function jobListQuerySchema<S extends readonly [string, ...string[]]>(options: { id: string; statuses: S; idPrefix: string }) {
  return z
    .object({
      status: z.enum(options.statuses).optional().meta({ description: 'Only jobs in this status.' }),
      created_after: instant('Only jobs created strictly after this time.'),
      created_before: instant('Only jobs created strictly before this time.'),
      ...pageQueryFields({ defaultLimit: 20, idPrefix: options.idPrefix }),
    })
    .meta({ id: options.id, examples: [{ status: options.statuses[0], created_after: '2026-11-01T00:00:00Z', limit: 20 }] });
}

export type JobListQuery = z.infer<ReturnType<typeof jobListQuerySchema>>;
