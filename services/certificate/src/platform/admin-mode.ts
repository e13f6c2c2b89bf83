import type { Request } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '@platform/service-kit/validation';

/**
 * `?mode=test` or `?livemode=false` on an admin route: the dashboard acts on the organization's test certificates
 * (issued in test mode, spending nothing, never verified as valid) instead of live ones (the default). Both given and
 * disagreeing: 422. The same parameters as mobility's admin routes.
 */
export const adminModeFields = {
  livemode: z.enum(['true', 'false']).optional().meta({ description: '`false` acts on test-mode certificates; live ones by default.' }),
  mode: z.enum(['live', 'test']).optional().meta({ description: 'The same as `livemode`: `test` acts on test-mode certificates.' }),
};

/** The mode parameters of an admin operation, as its route table entry declares them. */
export const adminModeQuery = z.object(adminModeFields).meta({ id: 'AdminModeQuery', examples: [{ mode: 'test' }] });

const adminModeQuerySchema = adminModeQuery.refine(
  (query) => query.livemode === undefined || query.mode === undefined || (query.livemode === 'true') === (query.mode === 'live'),
  { path: ['mode'], message: 'must agree with livemode' },
);

/** Whether an admin request acts on live data (true, the default) or test data (`?mode=test`, `?livemode=false`). */
export function adminLivemode(req: Pick<Request, 'query'>): boolean {
  const query = parseOrThrow(adminModeQuerySchema, req.query);
  return !(query.livemode === 'false' || query.mode === 'test');
}
