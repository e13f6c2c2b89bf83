import { ConflictError, NotFoundError, ValidationError } from '@platform/service-kit/errors';
import { newId } from '@platform/service-kit/ids';
import { parseOrThrow } from '@platform/service-kit/validation';
import { checkImage, type DecodeImages, type ImageMeta, type ImageToDecode } from './template-images';
import type { NewVersion, TemplatesRepository, VersionImages } from './templates.repository';
import { templateDefinitionSchema, type NewTemplate, type TemplateDefinition, type TemplatePatch } from './templates.schema';
import { presentTemplate } from './templates.presenter';

/** What issuing needs to know of a template: whether it can be used, its current version and its custom fields. */
export interface TemplateForIssue {
  id: string;
  status: 'active' | 'archived';
  version: number;
  customFields: TemplateDefinition['custom_fields'];
}

const IMAGE_FIELDS = ['background_image', 'logo', 'signature_image'] as const;
type ImageField = (typeof IMAGE_FIELDS)[number];

/** Each image of the request with its header checked, nothing decoded yet (undefined: not sent, null: removed). */
function uploadedImages(input: Pick<TemplatePatch, ImageField>) {
  const checked = (field: ImageField) => {
    const image = input[field];
    return image ? checkImage(`${field}.data`, image.data) : image;
  };
  return { background_image: checked('background_image'), logo: checked('logo'), signature_image: checked('signature_image') };
}

type UploadedImages = ReturnType<typeof uploadedImages>;

/** The uploaded images to decode, in the order a 422 names them. */
function toDecode(uploaded: UploadedImages) {
  return IMAGE_FIELDS.flatMap((field) => {
    const image = uploaded[field];
    return image ? [{ path: `${field}.data`, bytes: image.bytes, contentType: image.meta.content_type }] : [];
  });
}

/** The images of a new version: those uploaded, or null where removed, else those of the current version. */
function versionImages(uploaded: UploadedImages, kept: VersionImages | null): VersionImages {
  const pick = (field: ImageField) => {
    const image = uploaded[field];
    if (image === undefined) return { bytes: kept?.[field] ?? null, meta: kept?.[`${field}_meta`] ?? null };
    return { bytes: image?.bytes ?? null, meta: image?.meta ?? null };
  };
  const [background, logo, signature] = IMAGE_FIELDS.map(pick) as [ReturnType<typeof pick>, ReturnType<typeof pick>, ReturnType<typeof pick>];
  return {
    background_image: background.bytes,
    background_image_meta: background.meta,
    logo: logo.bytes,
    logo_meta: logo.meta,
    signature_image: signature.bytes,
    signature_image_meta: signature.meta,
  };
}

/** The pixel cap counts every image a version keeps; the error names the last image uploaded (the logo before the background). */
function checkVersionPixels(uploaded: UploadedImages, images: VersionImages, maxDecodedPixels: number): void {
  const named = (['signature_image', 'logo', 'background_image'] as const).find((field) => uploaded[field]);
  if (!named) return;
  checkDecodedPixels([images.background_image_meta, images.logo_meta, images.signature_image_meta], named, maxDecodedPixels);
}

/**
 * Rendering decodes every image of a template at full size (4 bytes a pixel), whatever its file size: the images a
 * version keeps may decode to at most `maxDecodedPixels` together. The error names the image uploaded with the request.
 */
function checkDecodedPixels(images: Array<ImageMeta | null | undefined>, uploaded: ImageField, maxDecodedPixels: number): void {
  const pixels = images.reduce((sum, meta) => sum + (meta ? meta.width * meta.height : 0), 0);
  if (pixels <= maxDecodedPixels) return;
  throw new ValidationError([
    { path: `${uploaded}.data`, message: `the template's images decode to ${pixels} pixels together (width × height of the background, the logo and the signature); at most ${maxDecodedPixels} are allowed` },
  ]);
}

/** What a preview draws: a template's design and images. */
export interface TemplateDraft {
  definition: TemplateDefinition;
  background: Buffer | null;
  logo: Buffer | null;
  signature: Buffer | null;
}

/**
 * A draft checked as a new template would be, but for the decode of the images uploaded with it (`toDecode`), which the
 * preview's render does first, in the render pool: nothing is stored.
 */
export interface PreviewDraft {
  draft: TemplateDraft;
  toDecode: ImageToDecode[];
}

/**
 * The images of a new version, checked in order of cost: each header (type, bytes, sides), then the pixels the version
 * keeps together; `pending` are the uploaded ones still to decode (`checkedVersionImages`, or a preview's render).
 */
function versionImagesToDecode(input: Pick<TemplatePatch, ImageField>, kept: VersionImages | null, maxDecodedPixels: number) {
  const uploaded = uploadedImages(input);
  const images = versionImages(uploaded, kept);
  checkVersionPixels(uploaded, images, maxDecodedPixels);
  return { images, pending: toDecode(uploaded) };
}

/**
 * The images of a new version checked, and only then the uploaded ones decoded, in the render pool within the
 * organization's budget, so that no request makes the service decode more than the pixel cap, nor decode on its event loop.
 */
async function checkedVersionImages(organizationId: string, input: Pick<TemplatePatch, ImageField>, kept: VersionImages | null, maxDecodedPixels: number, decodeImages: DecodeImages) {
  const { images, pending } = versionImagesToDecode(input, kept, maxDecodedPixels);
  if (pending.length) await decodeImages(organizationId, pending);
  return images;
}

/**
 * Templates belong to one organization. Every change is a new version (the old ones stay for the certificates issued
 * with them); an archived template can be read but neither changed nor used to issue.
 */
export function createTemplatesService(repository: TemplatesRepository, limits: { maxDecodedPixels: number }, decodeImages: DecodeImages) {
  async function find(organizationId: string, id: string) {
    const row = await repository.find(organizationId, id);
    if (!row) throw new NotFoundError('Template not found');
    return row;
  }

  /**
   * The next version an update makes: the current one with the fields given, checked as a new template is but for the
   * decode of the images uploaded (`pending`).
   */
  async function changed(organizationId: string, id: string, patch: TemplatePatch) {
    const current = await find(organizationId, id);
    if (current.status === 'archived') throw new ConflictError('An archived template cannot be changed', 'template_archived');
    const { background_image: _background, logo: _logo, signature_image: _signature, signature_label, issuer_name, ...changes } = patch;
    const merged: Record<string, unknown> = { ...current.definition, ...changes };
    // A label or an issuer name of null removes it; absent keeps the current one.
    for (const [field, value] of [['signature_label', signature_label], ['issuer_name', issuer_name]] as const) {
      if (value === null) delete merged[field];
      else if (value !== undefined) merged[field] = value;
    }
    const definition = parseOrThrow(templateDefinitionSchema, merged);
    const kept = await repository.images(id, current.current_version);
    const { images, pending } = versionImagesToDecode(patch, kept, limits.maxDecodedPixels);
    const version: NewVersion = { definition, ...images };
    return { current, version, pending };
  }

  return {
    /** A draft checked as a new template would be (its uploaded images still to decode), for a preview: nothing is stored. */
    draft(input: NewTemplate): PreviewDraft {
      const { background_image: _background, logo: _logo, signature_image: _signature, ...definition } = input;
      const { images, pending } = versionImagesToDecode(input, null, limits.maxDecodedPixels);
      return { draft: { definition, background: images.background_image, logo: images.logo, signature: images.signature_image }, toDecode: pending };
    },
    async create(organizationId: string, input: NewTemplate) {
      const { background_image: _background, logo: _logo, signature_image: _signature, ...definition } = input;
      const images = await checkedVersionImages(organizationId, input, null, limits.maxDecodedPixels, decodeImages);
      const id = newId('tpl');
      await repository.create({ id, organization_id: organizationId, name: definition.name }, { definition, ...images });
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
      const { current, version, pending } = await changed(organizationId, id, patch);
      if (pending.length) await decodeImages(organizationId, pending);
      if (!(await repository.addVersion(organizationId, id, current.current_version, version))) {
        throw new ConflictError('The template changed while this update was made; read it again and retry', 'template_changed');
      }
      return presentTemplate(await find(organizationId, id));
    },
    /** What an update would make, for a preview while editing: checked like the update (its uploaded images still to decode), nothing stored. */
    async draftUpdate(organizationId: string, id: string, patch: TemplatePatch): Promise<PreviewDraft> {
      const { version, pending } = await changed(organizationId, id, patch);
      return { draft: { definition: version.definition, background: version.background_image, logo: version.logo, signature: version.signature_image }, toDecode: pending };
    },
    /** The template's versions, newest first, each with the certificates issued with it. */
    async versions(organizationId: string, id: string, limit: number, before?: number) {
      const current = await find(organizationId, id);
      const rows = await repository.versions(id, limit + 1, before);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return {
        data: page.map((row) => ({ ...row, current: row.version === current.current_version, created_at: row.created_at.toISOString() })),
        has_more: hasMore,
        next_before: hasMore ? page.at(-1)!.version : null,
      };
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

export type TemplatesService = ReturnType<typeof createTemplatesService>;
