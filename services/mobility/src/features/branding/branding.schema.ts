import { z } from 'zod';
import { dateTime, integer } from '../../platform/schema-types';

/** What the branding feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const partnerBrandingResponse = z.object({
  display_name: z.string().nullable().meta({ description: "Shown to recipients; null: the organization's name is shown." }),
  brand_color: z.string().regex(/^#[0-9a-f]{6}$/).nullable(),
  logo: z.object({
    content_type: z.enum(['image/png', 'image/jpeg', 'image/webp']),
    bytes: integer(),
    sha256: z.string(),
  }).nullable().meta({ description: 'The stored logo (its bytes are served only on tracking pages, from this origin).' }),
  updated_at: dateTime().nullable().meta({ description: 'Null until the branding was first set.' }),
}).meta({ id: 'PartnerBranding', description: 'What the tracking page shows of the organization.', example: {'display_name':'Mama Put Kitchen','brand_color':'#0b6e4f','logo':{'content_type':'image/png','bytes':2048,'sha256':'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'},'updated_at':'2026-11-26T09:00:00.000Z'} });
