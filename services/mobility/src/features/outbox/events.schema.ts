import { z } from 'zod';
import { webhookEventTypeResponse } from '../webhook-endpoints/webhook-endpoints.schema';
import { rideResponse } from '../rides/rides.schema';
import { deliveryResponse } from '../deliveries/deliveries.schema';
import { eventPassProgramResponse, eventPassRedemptionResponse } from '../event-passes/event-passes.schema';
import { deliveryLocationUpdateResponse, rideLocationUpdateResponse } from '../telemetry/telemetry.schema';
import { dateTime } from '../../platform/schema-types';
import { pageSchema } from '@platform/service-kit/pagination';

/** What the outbox feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const webhookEventResponse = z.object({
  id: z.string().regex(/^evt_/),
  type: webhookEventTypeResponse,
  created_at: dateTime(),
  livemode: z.boolean().meta({ description: 'false for an event about test-mode data; such events go only to test-mode endpoints.' }),
  example: z.literal(true).optional().meta({ description: 'Only on an example event sent from the dashboard\'s event catalog ("Send example event"): its `data` is made up; do not act on it.' }),
  data: z.xor([rideResponse, deliveryResponse, eventPassRedemptionResponse, eventPassProgramResponse, rideLocationUpdateResponse, deliveryLocationUpdateResponse]).meta({ description: "The ride or delivery exactly as `GET` returns it, with `updated_at` and `sequence`; for `event_pass.*` the\nredemption (ride, pass, covered amount); for `event_pass_program.budget_exhausted` the program as `GET` returns it;\nfor `ride.location_updated` / `delivery.courier_location_updated` the job's position (`JobLocationUpdate`).\n" }),
}).meta({ id: 'WebhookEvent' });

export const listEventsResponse = pageSchema(z.object({
  id: z.string().regex(/^evt_/),
  type: z.string().meta({ examples: ['ride.completed','webhook.test','webhook_endpoint.disabled'] }),
  created_at: dateTime(),
  data: z.looseObject({}),
  object_type: z.string().meta({ examples: ['ride','delivery','event_pass_program','webhook_endpoint'] }),
  object_id: z.string(),
  livemode: z.boolean().meta({ description: 'false for an event about test-mode data.' }),
}));

/** What the events operations read: the list's query. */
export const eventListQuerySchema = z
  .object({
    type: z.string().trim().min(1).max(100).optional().meta({ description: 'Only events of this type, e.g. `ride.completed`.' }),
    object_id: z.string().trim().min(1).max(100).optional().meta({ description: 'Only events about this ride, delivery, program or endpoint.' }),
    limit: z.coerce.number().int().min(1).max(100).default(20),
    cursor: z.string().max(100).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
  })
  .meta({ id: 'EventListQuery', examples: [{ type: 'ride.completed', limit: 20 }] });
