import { z } from 'zod';
import { adminModeFields } from '../../platform/admin-mode';

/** What the search feature reads and answers (`.meta({ id })` names the component). */

export const certificateSearchQuery = z
  .object({
    q: z.string().trim().min(2, 'must be at least 2 characters').max(100).meta({ description: 'A certificate id (`cert_…`), verification code or number, or the start of one; or the start of a member\'s email.' }),
    limit: z.coerce.number().int().min(1).max(10).default(5).meta({ description: 'At most this many results of each kind.' }),
    ...adminModeFields,
  })
  .strict()
  .meta({ id: 'CertificateSearchQuery', examples: [{ q: 'CERT-2026', limit: 5 }] });

export const certificateSearchResultSchema = z.strictObject({
  kind: z.enum(['certificate', 'member']),
  id: z.string().meta({ description: 'The certificate id, or the member\'s account id.' }),
  label: z.string().meta({ description: 'The certificate number, or the member\'s email.' }),
  detail: z.string().nullable().meta({ description: 'A second line: recipient, program, code and status; or name and role.' }),
  verification_code: z.string().nullable().optional(),
}).meta({ id: 'CertificateSearchResult' });

export const certificateSearchSchema = z.strictObject({
  query: z.string(),
  data: z.array(certificateSearchResultSchema),
}).meta({ id: 'CertificateSearchResults' });
