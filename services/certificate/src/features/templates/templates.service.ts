import { ConflictError, newId, NotFoundError, parseOrThrow, ValidationError } from '@platform/service-kit';
import { checkImage, type ImageMeta } from './template-images';
import type { NewVersion, TemplatesRepository, TemplateWithVersion } from './templates.repository';
import { templateDefinitionSchema, type NewTemplate, type TemplateDefinition, type TemplatePatch } from './templates.schema';

export function presentTemplate(row: TemplateWithVersion) {
  return {
    id: row.id,
    status: row.status,
    version: row.current_version,
    ...row.definition,
    background_image: row.background_image_meta,
    logo: row.logo_meta,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    archived_at: row.archived_at?.toISOString() ?? null,
  };
}

/** What issuing needs to know of a template: whether it can be used, its current version and its custom fields. */
export interface TemplateForIssue {
  id: string;
  status: 'active' | 'archived';
  version: number;
  customFields: TemplateDefinition['custom_fields'];
}

async function uploadedImages(input: Pick<TemplatePatch, 'background_image' | 'logo'>) {
  const background = input.background_image ? await checkImage('background_image.data', input.background_image.data) : input.background_image;
  const logo = input.logo ? await checkImage('logo.data', input.logo.data) : input.logo;
  return { background, logo };
}

/**
 * Rendering decodes every image of a template at full size (4 bytes a pixel), whatever its file size: the images a
 * version keeps may decode to at most `maxDecodedPixels` together. The error names the image uploaded with the request.
 */
function checkDecodedPixels(images: Array<ImageMeta | null | undefined>, uploaded: 'background_image' | 'logo', maxDecodedPixels: number): void {
  const pixels = images.reduce((sum, meta) => sum + (meta ? meta.width * meta.height : 0), 0);
  if (pixels <= maxDecodedPixels) return;
  throw new ValidationError([
    { path: `${uploaded}.data`, message: `the template's images decode to ${pixels} pixels together (width × height of the background and the logo); at most ${maxDecodedPixels} are allowed` },
  ]);
}

/**
 * Templates belong to one organization. Every change is a new version (the old ones stay for the certificates issued
 * with them); an archived template can be read but neither changed nor used to issue.
 */
export function templatesService(repository: TemplatesRepository, limits: { maxDecodedPixels: number }) {
  async function find(organizationId: string, id: string) {
    const row = await repository.find(organizationId, id);
    if (!row) throw new NotFoundError('Template not found');
    return row;
  }

  return {
    /** A draft checked as a new template would be (images decoded and bounded), for a preview: nothing is stored. */
    async draft(input: NewTemplate): Promise<{ definition: TemplateDefinition; background: Buffer | null; logo: Buffer | null }> {
      const { background_image: _background, logo: _logo, ...definition } = input;
      const images = await uploadedImages(input);
      if (images.background || images.logo) checkDecodedPixels([images.background?.meta, images.logo?.meta], images.logo ? 'logo' : 'background_image', limits.maxDecodedPixels);
      return { definition, background: images.background?.bytes ?? null, logo: images.logo?.bytes ?? null };
    },
    async create(organizationId: string, input: NewTemplate) {
      const { background_image: _background, logo: _logo, ...definition } = input;
      const images = await uploadedImages(input);
      if (images.background || images.logo) checkDecodedPixels([images.background?.meta, images.logo?.meta], images.logo ? 'logo' : 'background_image', limits.maxDecodedPixels);
      const id = newId('tpl');
      await repository.create(
        { id, organization_id: organizationId, name: definition.name },
        {
          definition,
          background_image: images.background?.bytes ?? null,
          background_image_meta: images.background?.meta ?? null,
          logo: images.logo?.bytes ?? null,
          logo_meta: images.logo?.meta ?? null,
        },
      );
      return presentTemplate(await find(organizationId, id));
    },
    async get(organizationId: string, id: string) {
      return presentTemplate(await find(organizationId, id));
    },
    async list(organizationId: string, limit: number, after?: string, status?: string) {
      const rows = await repository.list(organizationId, limit + 1, after, status);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return { data: page.map(presentTemplate), has_more: hasMore, next_cursor: hasMore ? page.at(-1)!.id : null };
    },
    /** The fields given replace those of the current version; the result must pass the same rules as a new template. */
    async update(organizationId: string, id: string, patch: TemplatePatch) {
      const current = await find(organizationId, id);
      if (current.status === 'archived') throw new ConflictError('An archived template cannot be changed', 'template_archived');
      const { background_image: _background, logo: _logo, ...changes } = patch;
      const definition = parseOrThrow(templateDefinitionSchema, { ...current.definition, ...changes });
      const uploaded = await uploadedImages(patch);
      const kept = await repository.images(id, current.current_version);
      const version: NewVersion = {
        definition,
        background_image: uploaded.background === undefined ? kept.background_image : (uploaded.background?.bytes ?? null),
        background_image_meta: uploaded.background === undefined ? kept.background_image_meta : (uploaded.background?.meta ?? null),
        logo: uploaded.logo === undefined ? kept.logo : (uploaded.logo?.bytes ?? null),
        logo_meta: uploaded.logo === undefined ? kept.logo_meta : (uploaded.logo?.meta ?? null),
      };
      if (uploaded.background || uploaded.logo) {
        checkDecodedPixels([version.background_image_meta, version.logo_meta], uploaded.logo ? 'logo' : 'background_image', limits.maxDecodedPixels);
      }
      if (!(await repository.addVersion(organizationId, id, current.current_version, version))) {
        throw new ConflictError('The template changed while this update was made; read it again and retry', 'template_changed');
      }
      return presentTemplate(await find(organizationId, id));
    },
    async archive(organizationId: string, id: string) {
      if (!(await repository.archive(organizationId, id))) throw new NotFoundError('Template not found');
      return presentTemplate(await find(organizationId, id));
    },
    /** The organization's templates among `ids`, for issuing; ids of other organizations are simply absent. */
    async forIssue(organizationId: string, ids: string[]): Promise<Map<string, TemplateForIssue>> {
      const found = new Map<string, TemplateForIssue>();
      for (const id of new Set(ids)) {
        const row = await repository.find(organizationId, id);
        if (row) found.set(id, { id, status: row.status, version: row.current_version, customFields: row.definition.custom_fields });
      }
      return found;
    },
  };
}

export type TemplatesService = ReturnType<typeof templatesService>;
