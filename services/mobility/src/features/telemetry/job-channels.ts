import type { Telemetry } from '../fleet';

export type JobObjectType = 'ride' | 'delivery';

export type JobView = Record<string, unknown> & { id: string; status: string; sequence: number };

/** One job's live events as they travel over Redis pub/sub: a status change (the job as GET shows it) or a new position. */
export type JobMessage = { event: 'status'; data: JobView } | { event: 'location'; data: Telemetry };

/** The pub/sub channel of one job (under REDIS_PREFIX); every API process's streams of that job listen on it. */
export function jobChannel(prefix: string, jobId: string): string {
  return `${prefix}:telemetry:job:${jobId}`;
}

/** The kind of job a driver's `current_job_id` names, from its id prefix (`ride_…`, `dlv_…`). */
export function jobObjectTypeOf(jobId: string): JobObjectType | undefined {
  if (jobId.startsWith('ride_')) return 'ride';
  if (jobId.startsWith('dlv_')) return 'delivery';
  return undefined;
}
