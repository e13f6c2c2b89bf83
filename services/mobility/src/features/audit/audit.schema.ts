import { z } from 'zod';
import { dateTime } from '../../platform/schema-types';
import { pageSchema } from '@platform/service-kit/pagination';

/** What the audit feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const listAuditLogResponse = pageSchema(z.object({
  id: z.string().regex(/^aud_/),
  organization_id: z.string(),
  actor_id: z.string(),
  actor_role: z.string(),
  action: z.string().meta({ examples: ['webhook_endpoint.created'] }),
  target_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  ip_address: z.string(),
  created_at: dateTime(),
  mode: z.enum(['live', 'test']).nullable().meta({ description: 'Which data the change was made to; null when the caller had no mode (the payment gateway) or for an entry older than the mode.' }),
  before: z.record(z.string(), z.unknown()).nullable().meta({ description: "An update's changed fields before it (a delete's: the whole object); never a secret. Null for other actions." }),
  after: z.record(z.string(), z.unknown()).nullable().meta({ description: "An update's changed fields after it; null for other actions and deletes." }),
}));
