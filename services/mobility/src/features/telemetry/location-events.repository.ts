import { currentTraceparent } from '@platform/service-kit/request-context';
import type { Knex } from '@platform/service-kit/db';
import type { JobObjectType } from './job-channels';

const JOBS = {
  ride: { table: 'rides', assignee: 'driver_id' },
  delivery: { table: 'deliveries', assignee: 'courier_id' },
} as const;

/**
 * The statuses, per kind of job, in which its assignee is on the way and the job shows a position: the rides' and
 * deliveries' state tables say which (services.ts gives them to telemetry; telemetry names no job feature).
 */
export type ActiveStatuses = Record<JobObjectType, readonly string[]>;

export interface LocationEventInput {
  objectType: JobObjectType;
  jobId: string;
  driverId: string;
  type: string;
  /** The event body without the job's `status`, `sequence` and `livemode`, which the statement fills in from the row. */
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/** Location events: written only when a partner listens for them. */
export interface LocationEventsRepository {
  /**
   * One statement, atomic on its own: when the job is still the driver's, still active, and its partner has an enabled
   * endpoint of the job's mode listing the event type, bump the job's sequence and append the event to the outbox with the job's status
   * and new sequence. Answers whether an event was written; nobody subscribed costs this one statement and nothing else.
   */
  appendLocationEventIfSubscribed(activeStatuses: ActiveStatuses, input: LocationEventInput): Promise<boolean>;
}

/** The location events' Postgres statement (jobs' sequence and the outbox). */
export function createLocationEventsRepository(db: Knex): LocationEventsRepository {
  return {
    async appendLocationEventIfSubscribed(activeStatuses, input) {
      const job = JOBS[input.objectType];
      const active = activeStatuses[input.objectType];
      const statuses = active.map(() => '?').join(', ');
      const result = await db.raw(
        `with job as (
       update ${job.table} set sequence = sequence + 1
        where id = ? and ${job.assignee} = ? and status in (${statuses})
          and exists (select 1 from webhook_endpoints e where e.partner_id = ${job.table}.partner_id and e.livemode = ${job.table}.livemode and e.status = 'enabled' and ? = any(e.events))
       returning id, partner_id, livemode, status, sequence
     )
     insert into outbox_events (id, partner_id, livemode, type, object_type, object_id, sequence, body, created_at, traceparent)
     select ?, job.partner_id, job.livemode, ?, ?, job.id, job.sequence,
            jsonb_set(jsonb_set(jsonb_set(?::jsonb, '{data,status}', to_jsonb(job.status)), '{data,sequence}', to_jsonb(job.sequence)), '{livemode}', to_jsonb(job.livemode)), ?, ?
       from job`,
        [
          input.jobId,
          input.driverId,
          ...active,
          input.type,
          input.body.id,
          input.type,
          input.objectType,
          JSON.stringify(input.body),
          input.body.created_at,
          currentTraceparent() ?? null,
        ],
      );
      return (result as { rowCount: number }).rowCount > 0;
    },
  };
}
