import { Router, type Request, type RequestHandler } from 'express';
import type { z } from 'zod';
import { parseOrThrow, sendJsonWithEtag, type Page } from '@platform/service-kit';
import type { PartnerAccount } from '../api-keys';
import type { JobListQuery } from './job-list-query';
import { validIdempotencyKey } from '../idempotency';

export interface PartnerJobRoutesDeps<Input, View> {
  /** The scope checks for reading and for creating or cancelling (API-key middleware, given by the job's feature). */
  requireRead: RequestHandler;
  requireWrite: RequestHandler;
  /** The key's partner and mode: a key sees and creates only jobs of its own mode. */
  accountOf: (req: Request) => PartnerAccount;
  createSchema: z.ZodType<Input>;
  /** A malformed id is a 404, like an unknown one. */
  parseId(value: unknown): string;
  create(account: PartnerAccount, input: Input, idempotencyKey?: string): Promise<{ status: number; body: unknown; replayed: boolean }>;
  get(account: PartnerAccount, id: string): Promise<View>;
  cancel(account: PartnerAccount, id: string): Promise<View>;
  /** `GET /`: the partner's jobs, newest first (job-list-query.ts). */
  listSchema: z.ZodType<JobListQuery>;
  list(account: PartnerAccount, query: JobListQuery): Promise<Page<View>>;
}

export type JobReadRoutesDeps<View> = Pick<PartnerJobRoutesDeps<unknown, View>, 'requireRead' | 'accountOf' | 'parseId' | 'get' | 'listSchema' | 'list'>;

/** A job's reads: the list (`GET /`) and one job (`GET /{id}`, with an ETag); the partner API's and the admin API's. */
export function jobReadRoutes<View>(job: JobReadRoutesDeps<View>): Router {
  const router = Router();
  router.get('/', job.requireRead, async (req, res) => {
    res.json(await job.list(job.accountOf(req), parseOrThrow(job.listSchema, req.query)));
  });
  router.get('/:id', job.requireRead, async (req, res) => {
    sendJsonWithEtag(req, res, await job.get(job.accountOf(req), job.parseId(req.params.id)));
  });
  return router;
}

/** A job's partner routes: create (optional Idempotency-Key), list, GET by id, cancel. */
export function partnerJobRoutes<Input, View>(job: PartnerJobRoutesDeps<Input, View>): Router {
  const router = Router();

  router.post('/', job.requireWrite, async (req, res) => {
    const key = validIdempotencyKey(req.headers['idempotency-key']);
    const input = parseOrThrow(job.createSchema, req.body);
    const answer = await job.create(job.accountOf(req), input, key);
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(answer.status).json(answer.body);
  });

  router.use(jobReadRoutes(job));

  router.post('/:id/cancel', job.requireWrite, async (req, res) => {
    res.json(await job.cancel(job.accountOf(req), job.parseId(req.params.id)));
  });

  return router;
}
