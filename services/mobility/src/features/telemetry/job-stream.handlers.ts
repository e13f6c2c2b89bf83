import { Router, type Request, type RequestHandler } from 'express';
import { principalOf, type MobilityScope } from '@platform/api-keys';
import { accountOf, requireScope } from '../api-keys';
import type { JobTelemetry } from './job-telemetry.service';
import { streamJob } from './job-stream';
import type { JobView } from './job-channels';

export const HEARTBEAT_MS = 15_000;
/** A stream sends at most one position a second; a newer one replaces one still waiting. */
export const STREAM_LOCATION_EVERY_MS = 1_000;

/** Whose jobs a request may see (the api-keys feature's `PartnerAccount`). */
export interface Account {
  partnerId: string;
  livemode: boolean;
}

/**
 * One kind of job the streams serve. Rides and deliveries each give theirs (`rideStreams`, `deliveryStreams`) to the
 * composition root, which hands it here: telemetry names no job feature.
 */
export interface StreamedJobs {
  /** The scope a key needs to read this kind of job (`rides:read`). */
  readScope: MobilityScope;
  /** A malformed id is a 404, like an unknown one. */
  parseId(value: unknown): string;
  get(account: Account, id: string): Promise<JobView>;
  isTerminal(status: string): boolean;
}

export interface JobStreamRouteDeps extends Omit<StreamedJobs, 'readScope'> {
  requireRead: RequestHandler;
  /** The request's partner and mode: a stream shows only a job of the key's own partner and mode (live or test). */
  accountOf: (req: Request) => Account;
  telemetry: JobTelemetry;
}

/** `GET /api/v1/<jobs>/{id}/stream` (mounted behind API key authentication): one kind of job's streams, under its read scope. */
export function partnerJobStreamRoutes(jobs: StreamedJobs, telemetry: JobTelemetry): Router {
  return jobStreamRoutes({ ...jobs, requireRead: requireScope(jobs.readScope), accountOf, telemetry });
}

/** `GET /{id}/stream`: the job's Server-Sent Events (job-stream.ts), under the job's read scope. */
export function jobStreamRoutes(deps: JobStreamRouteDeps): Router {
  const router = Router();
  router.get('/:id/stream', deps.requireRead, async (req, res) => {
    const id = deps.parseId(req.params.id);
    const account = deps.accountOf(req);
    const releaseSlot = deps.telemetry.streamLimits.acquire(principalOf(req));
    await streamJob(res, {
      hub: deps.telemetry.hub,
      channel: deps.telemetry.channelOf(id),
      snapshot: () => deps.get(account, id),
      isTerminal: deps.isTerminal,
      heartbeatMs: HEARTBEAT_MS,
      locationEveryMs: STREAM_LOCATION_EVERY_MS,
      shutdown: deps.telemetry.shutdownSignal,
      onEnd: releaseSlot,
    });
  });
  return router;
}
