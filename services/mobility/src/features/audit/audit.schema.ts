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
}));
