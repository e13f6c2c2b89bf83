import { z } from 'zod';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

export const documentQuery = z
  .object({ format: z.enum(['pdf', 'png']).default('pdf') })
  .meta({ id: 'CertificateDocumentQuery', examples: [{ format: 'png' }] });
