import type { Request, Response } from 'express';
import { accountOf } from '../api-keys';
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
 * One kind of job the streams serve. Rides and deliveries each give theirs to `jobStreamHandler` in their handlers:
 * telemetry names no job feature. The read scope is the route table entry's (`streamRide`: rides:read).
 */
export interface StreamedJobs {
  /** A malformed id is a 404, like an unknown one. */
  parseId(value: unknown): string;
  /** The job as its GET shows it to `account` (a stream shows only a job of the key's own partner and mode). */
  get(account: Account, id: string): Promise<JobView>;
  isTerminal(status: string): boolean;
}

/**
 * The handler of `GET /api/v1/<jobs>/{id}/stream` (behind an API key with the job's read scope): the job's Server-Sent
 * Events (job-stream.ts). The stream's slot is the route table's `cost: 'stream'` (`streamSlotHook`), held until the
 * answer ends. It writes the answer itself.
 */
export function jobStreamHandler(jobs: StreamedJobs, telemetry: JobTelemetry) {
  return async ({ params, req, res }: { params: { id: string }; req: Request; res: Response }): Promise<void> => {
    const id = jobs.parseId(params.id);
    const account = accountOf(req);
    await streamJob(res, {
      hub: telemetry.hub,
      channel: telemetry.channelOf(id),
      snapshot: () => jobs.get(account, id),
      isTerminal: jobs.isTerminal,
      heartbeatMs: HEARTBEAT_MS,
      locationEveryMs: STREAM_LOCATION_EVERY_MS,
      shutdown: telemetry.shutdownSignal,
    });
  };
}
