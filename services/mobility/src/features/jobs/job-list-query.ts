import type { PartnerAccount } from '../api-keys';
import type { JobListFilter } from './job.repository';
import type { JobListQuery } from './jobs.schema';

const dateOf = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

/** The row filter of a parsed list query (jobs.schema.ts) for the partner, in the key's mode (live or test). */
export function jobListFilter({ partnerId, livemode }: PartnerAccount, query: JobListQuery): JobListFilter {
  return { partnerId, livemode, status: query.status, createdAfter: dateOf(query.created_after), createdBefore: dateOf(query.created_before), limit: query.limit, cursor: query.cursor };
}
