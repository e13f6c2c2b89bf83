import { z } from 'zod';

/** What the operations routes answer (`/readyz`, `/healthz`, `/openapi.json`). */
export const readinessResponse = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.record(z.string(), z.enum(['up', 'down'])),
  error: z.string().optional(),
  code: z.string().optional(),
}).meta({ id: 'Readiness' });

export const healthzResponse = z.object({
  status: z.literal('ok'),
});

export const openapiResponse = z.looseObject({});
