import type { z } from 'zod';
import type { templateSchema } from './templates.contract';
import type { TemplateWithVersion } from './templates.repository';

/** A template (its current version) as the admin API answers it. */
export function presentTemplate(row: TemplateWithVersion): z.infer<typeof templateSchema> {
  return {
    id: row.id,
    status: row.status,
    version: row.current_version,
    ...row.definition,
    background_image: row.background_image_meta,
    logo: row.logo_meta,
    signature_image: row.signature_image_meta ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    archived_at: row.archived_at?.toISOString() ?? null,
  };
}
