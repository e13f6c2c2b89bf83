import { pageQueryFields } from '@platform/service-kit/pagination';
import { z } from 'zod';
import { adminModeFields } from '../../platform/admin-mode';

const isoDate = z.iso.date('must be a date as YYYY-MM-DD');

export const newCertificateSchema = z
  .object({
    recipient_name: z.string().trim().min(1, 'is required').max(200),
    program_title: z.string().trim().min(1, 'is required').max(200),
    issue_date: isoDate,
    certificate_number: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, 'may hold letters, digits and . _ / -')
      .optional(),
    expires_on: isoDate.optional(),
    template_id: z.string().max(100).optional().meta({ description: 'A template of the organization (`tpl_…`); without one the built-in layout is used.' }),
    recipient_email: z
      .email('must be an email address')
      .max(254)
      .optional()
      .meta({ description: "The recipient's address: they are mailed the credential's links, and the credential names them by its salted SHA-256 (never the address itself)." }),
    custom_fields: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be a custom field key'), z.string().max(500))
      .optional()
      .meta({ description: "Values for the template's custom fields: every required one, and no other." }),
  })
  .strict()
  .refine((c) => !c.expires_on || c.expires_on >= c.issue_date, { path: ['expires_on'], message: 'must not be before issue_date' })
  .meta({
    id: 'NewCertificate',
    description:
      '`certificate_number` is unique in the organization and generated (`CERT-2026-…`) when absent; `expires_on` is not before `issue_date`. ' +
      'With a `template_id`, the certificate keeps the template\'s current version for good and `custom_fields` fills its custom fields. ' +
      'With a `recipient_email`, the recipient is mailed the credential once it is issued (see `delivery`).',
    examples: [{ recipient_name: 'Ada Lovelace', program_title: 'Analytical Engines 101', issue_date: '2026-05-01', expires_on: '2028-05-01' }],
  });

export type NewCertificate = z.infer<typeof newCertificateSchema>;

export const MAX_BATCH = 1000;

export const batchSchema = z
  .object({ certificates: z.array(newCertificateSchema).min(1, 'must hold at least one certificate').max(MAX_BATCH) })
  .strict()
  .meta({
    id: 'NewCertificateBatch',
    examples: [
      {
        certificates: [
          { recipient_name: 'Ada Lovelace', program_title: 'Analytical Engines 101', issue_date: '2026-05-01' },
          { recipient_name: 'Grace Hopper', program_title: 'Analytical Engines 101', issue_date: '2026-05-01' },
        ],
      },
    ],
  });

export const listQuery = z
  .object({
    ...pageQueryFields({ defaultLimit: 50 }),
    // The name this list's cursor had first; kept as an alias of `cursor` (which wins when both are sent).
    starting_after: z.string().max(100).optional().meta({ description: 'Alias of `cursor`, kept for existing integrations.' }),
    ...adminModeFields,
  })
  .meta({ id: 'CertificateListQuery', examples: [{ limit: 20 }] });
