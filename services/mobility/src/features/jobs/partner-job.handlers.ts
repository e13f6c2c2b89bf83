import type { Request } from 'express';
import type { Page } from '@platform/service-kit/pagination';
import type { PartnerAccount } from '../api-keys';
import { validIdempotencyKey } from '../idempotency';
import type { JobListQuery } from './jobs.schema';

/** What the reads of one kind of job need (rides, deliveries): whose jobs a request sees, its id parser, the service's reads. */
export interface JobReads<View> {
  /** The request's partner and mode: a key (or the dashboard's query) sees only jobs of its own mode. */
  accountOf: (req: Request) => PartnerAccount;
  /** A malformed id is a 404, like an unknown one. */
  parseId(value: unknown): string;
  get(account: PartnerAccount, id: string): Promise<View>;
  /** The partner's jobs, newest first (the list query of jobs.schema.ts). */
  list(account: PartnerAccount, query: JobListQuery): Promise<Page<View>>;
}

/** What a partner's creates and cancels of one kind of job need besides its reads. */
export interface PartnerJobs<Input, Created, View> extends JobReads<View> {
  create(account: PartnerAccount, input: Input, idempotencyKey?: string): Promise<{ status: number; body: Created; replayed: boolean }>;
  cancel(account: PartnerAccount, id: string): Promise<View>;
}

/**
 * The handlers of a job's reads, whatever the job and whoever reads (the partner API's, the dashboard's): the list
 * (its query parsed by the route table) and one job by id, with an ETag.
 */
export function jobReadHandlers<View>(job: JobReads<View>) {
  return {
    list: async ({ query, req }: { query: JobListQuery; req: Request }) => ({ status: 200 as const, body: await job.list(job.accountOf(req), query) }),
    get: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await job.get(job.accountOf(req), job.parseId(params.id)), etag: true }),
  };
}

/** The handlers of a partner's jobs of one kind: create (an optional `Idempotency-Key`), the reads, cancel. */
export function partnerJobHandlers<Input, Created, View>(job: PartnerJobs<Input, Created, View>) {
  return {
    ...jobReadHandlers(job),
    create: async ({ body, req }: { body: Input; req: Request }) => {
      // Read here, whether or not the entry declares the header (deliveries' does not): the same 422 for a bad key.
      const answer = await job.create(job.accountOf(req), body, validIdempotencyKey(req.headers['idempotency-key']));
      // A replay answers the stored first answer: a 201 too.
      return { status: answer.status as 201, body: answer.body, ...(answer.replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}) };
    },
    cancel: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await job.cancel(job.accountOf(req), job.parseId(params.id)) }),
  };
}
