import type { Request } from 'express';
import { z } from 'zod';
import { adminOf } from '@platform/service-kit/admin-auth';
import { parseOrThrow } from '@platform/service-kit/validation';
import type { PartnerAccount } from '../api-keys';

/**
 * `?livemode=false` or `?mode=test` on an admin route: the dashboard shows the organization's test data (what its
 * `mk_test_…` keys made) instead of live data (the default). Both given and disagreeing: 422.
 */
const adminModeFields = {
  livemode: z.enum(['true', 'false']).optional().meta({ description: '`false` shows test-mode data (made with `mk_test_…` keys); live data by default.' }),
  mode: z.enum(['live', 'test']).optional().meta({ description: 'The same as `livemode`: `test` shows test-mode data.' }),
};

/** The mode parameters of an admin operation, as its route table entry declares them. */
export const adminModeQuery = z.object(adminModeFields);

/** An admin list's query as its route table entry declares it: the list's parameters and the mode ones (with the list's examples). */
export function withAdminMode<Shape extends z.core.$ZodLooseShape, Config extends z.core.$ZodObjectConfig>(query: z.ZodObject<Shape, Config>) {
  const extended = query.extend(adminModeFields);
  const examples = z.globalRegistry.get(query)?.examples;
  return examples ? extended.meta({ examples }) : extended;
}

export const adminModeQuerySchema = adminModeQuery
  .refine((query) => query.livemode === undefined || query.mode === undefined || (query.livemode === 'true') === (query.mode === 'live'), {
    path: ['mode'],
    message: 'must agree with livemode',
  });

/** The partner an admin request acts for (the token's organization), in the mode its query asks for; behind `requireAdmin`. */
export function adminAccountOf(req: Request): PartnerAccount {
  const query = parseOrThrow(adminModeQuerySchema, req.query);
  return { partnerId: adminOf(req).org, livemode: !(query.livemode === 'false' || query.mode === 'test') };
}

/** The admin request's organization (features without test data: event pass programs). */
export function adminPartnerIdOf(req: Request): string {
  return adminOf(req).org;
}
