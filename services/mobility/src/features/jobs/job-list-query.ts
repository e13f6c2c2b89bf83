import { z } from 'zod';
import { pageQueryFields } from '@platform/service-kit';
import type { PartnerAccount } from '../api-keys';
import type { JobListFilter } from './job.repository';

// Kept a string here (no transform), so the description shows the query's example; jobListFilter makes it a Date.
const instant = (description: string) => z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional().meta({ description });
const dateOf = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

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

/** The row filter of a parsed list query for the partner, in the key's mode (live or test). */
export function jobListFilter({ partnerId, livemode }: PartnerAccount, query: JobListQuery): JobListFilter {
  return { partnerId, livemode, status: query.status, createdAfter: dateOf(query.created_after), createdBefore: dateOf(query.created_before), limit: query.limit, cursor: query.cursor };
}
