import { z } from 'zod';
import { adminModeFields } from '../../platform/admin-mode';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

export const documentQuery = z
  .object({ format: z.enum(['pdf', 'png']).default('pdf'), ...adminModeFields })
  .meta({ id: 'CertificateDocumentQuery', examples: [{ format: 'png' }] });
