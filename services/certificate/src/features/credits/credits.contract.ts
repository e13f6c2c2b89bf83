import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { creditsSchema, invalidAdminTokenResponse, validationFailedResponse } from '../../http-contract';
import { adminModeQuery } from '../../platform/admin-mode';
import { ledgerQuery } from './credits.schema';
import { pageSchema } from '@platform/service-kit/pagination';

export const creditLedgerEntrySchema = z.object({
  id: z.string().meta({ description: "The entry id (also the cursor).", examples: ["1042"] }),
  amount: z.int().meta({ description: "Credits added (positive) or spent (negative)." }),
  reason: z.string().meta({ examples: ["free_plan_grant", "certificate_issued", "plan_upgrade"] }),
  reference: z.string().nullable().meta({ description: "What the entry is about: the certificate id, the payment reference or the organization id." }),
  balance_after: z.int().meta({ description: "The balance right after this entry." }),
  created_at: z.iso.datetime({ offset: true }),
}).meta({ id: "CreditLedgerEntry" });

export const creditsRouteTable = [
  route({
    operationId: 'getAdminCredits',
    method: 'get',
    path: '/admin/v1/credits',
    tags: ["Admin subscriptions"],
    security: [{"adminJwt": []}],
    query: adminModeQuery,
    responses: {
      200: creditsSchema,
      401: invalidAdminTokenResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'listCreditLedger',
    method: 'get',
    path: '/admin/v1/credits/ledger',
    tags: ["Admin subscriptions"],
    security: [{"adminJwt": []}],
    query: ledgerQuery,
    responses: {
      200: pageSchema(creditLedgerEntrySchema),
      401: invalidAdminTokenResponse,
      422: validationFailedResponse,
    },
  }),
] as const;
