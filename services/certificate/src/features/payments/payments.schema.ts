import { z } from 'zod';
import { CREDIT_PACK_IDS } from '../plans';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

export const checkoutBody = z
  .object({ plan: z.string().min(1).max(50), gateway: z.enum(['gateway-a', 'gateway-b']) })
  .strict()
  .meta({ id: 'Checkout', examples: [{ plan: 'starter', gateway: 'gateway-a' }] });

export const topUpBody = z
  .object({ pack: z.enum(CREDIT_PACK_IDS), gateway: z.enum(['gateway-a', 'gateway-b']) })
  .strict()
  .meta({ id: 'CreditTopUp', examples: [{ pack: 'credits_500', gateway: 'gateway-b' }] });
