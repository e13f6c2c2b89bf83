import type { Knex } from '@platform/service-kit/db';
import type { ImageMeta } from './template-images';
import type { TemplateDefinition } from './templates.schema';

export interface TemplateRow {
  id: string;
  organization_id: string;
  name: string;
  status: 'active' | 'archived';
  current_version: number;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

/** A template with its current version's definition and image descriptions (not the image bytes). */
export interface TemplateWithVersion extends TemplateRow {
  definition: TemplateDefinition;
  background_image_meta: ImageMeta | null;
  logo_meta: ImageMeta | null;
  signature_image_meta: ImageMeta | null;
}

export interface NewVersion {
  definition: TemplateDefinition;
  background_image: Buffer | null;
  background_image_meta: ImageMeta | null;
  logo: Buffer | null;
  logo_meta: ImageMeta | null;
  signature_image: Buffer | null;
  signature_image_meta: ImageMeta | null;
}

/** One version in a template's history, and how many certificates were issued with it (they keep it). */
export interface VersionSummary {
  version: number;
  name: string;
  created_at: Date;
  certificates_issued: number;
}

/** The images a version keeps when an update does not name them. */
export type VersionImages = Omit<NewVersion, 'definition'>;

const WITH_VERSION = [
  't.id', 't.organization_id', 't.name', 't.status', 't.current_version', 't.created_at', 't.updated_at', 't.archived_at',
  'v.definition', 'v.background_image_meta', 'v.logo_meta', 'v.signature_image_meta',
];

export function createTemplatesRepository(db: Knex) {
  const withCurrentVersion = (organizationId: string) =>
    db('templates as t')
      .join('template_versions as v', (on) => on.on('v.template_id', 't.id').andOn('v.version', 't.current_version'))
      .where('t.organization_id', organizationId);

  return {
    async create(template: Pick<TemplateRow, 'id' | 'organization_id' | 'name'>, version: NewVersion): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('templates').insert({ ...template, current_version: 1 });
        await trx('template_versions').insert({ template_id: template.id, version: 1, ...version, definition: JSON.stringify(version.definition) });
      });
    },
    async find(organizationId: string, id: string): Promise<TemplateWithVersion | undefined> {
      return withCurrentVersion(organizationId).andWhere('t.id', id).first(WITH_VERSION);
    },
    /** Newest first (created_at, then id, both descending); `after` is the id of the previous page's last template. */
    async list(organizationId: string, limit: number, after?: string, status?: string): Promise<TemplateWithVersion[]> {
      const query = withCurrentVersion(organizationId)
        .orderBy([{ column: 't.created_at', order: 'desc' }, { column: 't.id', order: 'desc' }])
        .limit(limit)
        .select(WITH_VERSION);
      if (after) {
        const cursor = db('templates').where({ organization_id: organizationId, id: after }).select('created_at', 'id');
        query.andWhereRaw('(t.created_at, t.id) < (?)', [cursor]);
      }
      if (status) query.andWhere('t.status', status);
      return query;
    },
    /** The template's versions, newest first, `limit` of them older than `before` (all when absent). */
    async versions(id: string, limit: number, before?: number): Promise<VersionSummary[]> {
      const issued = db('certificates as c').whereRaw('c.template_id = v.template_id and c.template_version = v.version').count('*');
      const query = db('template_versions as v')
        .where('v.template_id', id)
        .orderBy('v.version', 'desc')
        .limit(limit)
        .select('v.version', db.raw("v.definition->>'name' as name"), 'v.created_at', issued.as('certificates_issued'));
      if (before !== undefined) query.andWhere('v.version', '<', before);
      const rows: Array<Omit<VersionSummary, 'certificates_issued'> & { certificates_issued: string | number }> = await query;
      return rows.map((row) => ({ ...row, certificates_issued: Number(row.certificates_issued) }));
    },
    /** The images of one version, for an update that keeps them. */
    async images(id: string, version: number): Promise<VersionImages> {
      return db('template_versions')
        .where({ template_id: id, version })
        .first('background_image', 'background_image_meta', 'logo', 'logo_meta', 'signature_image', 'signature_image_meta');
    },
    /**
     * Adds the next version and makes it current, only if the template is still active at `expectedVersion`; returns
     * false when another update or an archive came first.
     */
    async addVersion(organizationId: string, id: string, expectedVersion: number, version: NewVersion): Promise<boolean> {
      return db.transaction(async (trx) => {
        const updated = await trx('templates')
          .where({ organization_id: organizationId, id, current_version: expectedVersion, status: 'active' })
          .update({ current_version: expectedVersion + 1, name: version.definition.name, updated_at: trx.fn.now() })
          .returning('id');
        if (!updated.length) return false;
        await trx('template_versions').insert({ template_id: id, version: expectedVersion + 1, ...version, definition: JSON.stringify(version.definition) });
        return true;
      });
    },
    async archive(organizationId: string, id: string): Promise<boolean> {
      const updated = await db('templates')
        .where({ organization_id: organizationId, id })
        .update({ status: 'archived', archived_at: db.raw('coalesce(archived_at, now())'), updated_at: db.fn.now() })
        .returning('id');
      return updated.length > 0;
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
