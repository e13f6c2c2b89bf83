import { newId } from '@platform/service-kit/ids';
import type { Logger } from '@platform/service-kit/logger';
import type { Redis } from '@platform/service-kit/redis';
import type { Telemetry } from '../fleet';
import { ChannelHub } from './channel-hub';
import { jobChannel, jobObjectTypeOf, type JobMessage, type JobObjectType, type JobView } from './job-channels';
import type { ActiveStatuses, LocationEventsRepository } from './location-events.repository';
import { createLocationThrottle, type LocationThrottleRule } from './location-throttle';
import { StreamLimits, type StreamCaps } from './stream-limits';

export const LOCATION_EVENT_TYPE = { ride: 'ride.location_updated', delivery: 'delivery.courier_location_updated' } as const satisfies Record<JobObjectType, string>;
/** The live position events (opt-in webhook event types), one per kind of job. */
export const LOCATION_EVENT_TYPES = Object.values(LOCATION_EVENT_TYPE);

export interface JobTelemetryDeps {
  repository: LocationEventsRepository;
  redis: Redis;
  prefix: string;
  logger: Logger;
  limits: StreamCaps;
  locationEvents: LocationThrottleRule;
  /** The port telemetry defines for what the job features know: in which statuses a job's assignee is on the way. */
  activeStatuses: ActiveStatuses;
}

/**
 * Live job telemetry of one process: publishes status changes (after commit) and positions on the job's Redis
 * channel for the event streams, gates location webhooks per job, and holds the shared subscriber and stream caps.
 */
export function createJobTelemetry({ repository, redis, prefix, logger, limits, locationEvents, activeStatuses }: JobTelemetryDeps) {
  const hub = new ChannelHub(redis, logger);
  const throttle = createLocationThrottle(redis, prefix, locationEvents);
  const shutdown = new AbortController();
  const publish = (jobId: string, message: JobMessage) => hub.publish(jobChannel(prefix, jobId), JSON.stringify(message));

  /** Called after a status change committed: every open stream of the job sends it. Best effort (a lost one is not retried). */
  async function statusCommitted(view: JobView): Promise<void> {
    await publish(view.id, { event: 'status', data: view }).catch((err: unknown) => logger.warn({ err, job_id: view.id }, 'could not publish a job status'));
  }

  /**
   * A driver's new position: nothing at all for a driver without a job; otherwise one Redis round trip (publish to the
   * job's streams and the throttle's check-and-set), and, when the throttle lets it through, one SQL statement that
   * appends the location webhook only if the partner has an endpoint listing it. A failure is logged, not answered:
   * the position itself is already recorded.
   */
  async function positionReported(driver: { id: string; currentJobId: string | null }, telemetry: Telemetry): Promise<void> {
    const jobId = driver.currentJobId;
    const objectType = jobId ? jobObjectTypeOf(jobId) : undefined;
    if (!jobId || !objectType) return;
    try {
      const [, emit] = await Promise.all([publish(jobId, { event: 'location', data: telemetry }), throttle.shouldEmit(jobId, telemetry)]);
      if (!emit) return;
      const type = LOCATION_EVENT_TYPE[objectType];
      const position = { lat: telemetry.lat, lng: telemetry.lng, heading: telemetry.heading, speed_kph: telemetry.speed_kph };
      const data = { id: jobId, object: objectType, status: null, sequence: 0, position, recorded_at: telemetry.updated_at };
      await repository.appendLocationEventIfSubscribed(activeStatuses, { objectType, jobId, driverId: driver.id, type, body: { id: newId('evt'), type, created_at: new Date().toISOString(), data } });
    } catch (err) {
      logger.warn({ err, job_id: jobId }, 'could not publish a job position');
    }
  }

  // Named here so the declaration emitter writes the global `AbortSignal` (an inferred one cannot be named in d.ts).
  const shutdownSignal: AbortSignal = shutdown.signal;
  return {
    hub,
    streamLimits: new StreamLimits(limits),
    /** Aborted by `close`: open streams end so the process can drain. */
    shutdownSignal,
    channelOf: (jobId: string) => jobChannel(prefix, jobId),
    statusCommitted,
    positionReported,
    async close(): Promise<void> {
      shutdown.abort();
      await hub.close();
    },
  };
}

export type JobTelemetry = ReturnType<typeof createJobTelemetry>;
