import { z } from 'zod';
import { adminModeFields } from '../../platform/admin-mode';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

export const summaryQuery = z
  .object({ days: z.coerce.number().int().min(1).max(90).default(30).meta({ description: 'How many UTC days, ending today.' }), ...adminModeFields })
  .strict()
  .meta({ id: 'CertificateSummaryQuery', examples: [{ days: 30 }] });
