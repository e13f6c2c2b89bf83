import type { Knex } from 'knex';

/**
 * The document design: a template may carry a signature image (bytes beside the logo) and its definition gains
 * `date_format`, `frame` and `signature_placement`, filled in here with their defaults for the versions stored before.
 * The stored documents were drawn with the old design (no issuer name, ISO dates): they are dropped, and each renders
 * again, once, with the new one on its next request.
 */
const DESIGN_DEFAULTS = { date_format: 'long', frame: { style: 'none' }, signature_placement: { x: 0.08, y: 0.72, width: 0.2 } };

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('template_versions', (t) => {
    t.binary('signature_image'); // PNG or JPEG bytes, checked on upload
    t.jsonb('signature_image_meta');
  });
  // The defaults first, so that a value a definition already holds wins.
  await db('template_versions').update({ definition: db.raw('?::jsonb || definition', [JSON.stringify(DESIGN_DEFAULTS)]) });
  await db('certificate_documents').delete();
}

export async function down(db: Knex): Promise<void> {
  await db('template_versions').update({ definition: db.raw("definition - 'date_format' - 'frame' - 'signature_placement' - 'signature_label'") });
  await db.schema.alterTable('template_versions', (t) => {
    t.dropColumns('signature_image', 'signature_image_meta');
  });
  await db('certificate_documents').delete();
}
