import type { Knex } from 'knex';

/**
 * Certificate templates: a template is a name and a status; every update adds an immutable version (definition,
 * background image, logo). A certificate keeps the template version it was issued with, and its custom field values.
 * Rendered documents are cached per certificate, template version (0: the built-in layout) and format.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('templates', (t) => {
    t.text('id').primary(); // tpl_…
    t.text('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.integer('current_version').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('archived_at', { useTz: true });
    t.check("status in ('active', 'archived')", [], 'templates_status');
    t.index(['organization_id', 'id']);
  });
  await db.schema.createTable('template_versions', (t) => {
    t.text('template_id').notNullable().references('templates.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.jsonb('definition').notNullable(); // page, colours, fonts, text blocks, custom fields, QR placement
    t.binary('background_image'); // PNG or JPEG bytes, checked on upload
    t.binary('logo');
    t.jsonb('background_image_meta'); // {content_type, width, height, size_bytes}, read from the bytes on upload
    t.jsonb('logo_meta');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['template_id', 'version']);
  });
  await db.schema.alterTable('certificates', (t) => {
    t.text('template_id');
    t.integer('template_version');
    t.jsonb('custom_fields').notNullable().defaultTo('{}');
    t.foreign(['template_id', 'template_version'], 'certificates_template_version_foreign').references(['template_id', 'version']).inTable('template_versions');
  });
  await db.schema.createTable('certificate_documents', (t) => {
    t.text('certificate_id').notNullable().references('certificates.id').onDelete('CASCADE');
    t.integer('template_version').notNullable();
    t.text('format').notNullable();
    t.binary('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['certificate_id', 'template_version', 'format']);
    t.check("format in ('pdf', 'png')", [], 'certificate_documents_format');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('certificate_documents');
  await db.schema.alterTable('certificates', (t) => {
    t.dropForeign(['template_id', 'template_version'], 'certificates_template_version_foreign');
    t.dropColumns('template_id', 'template_version', 'custom_fields');
  });
  await db.schema.dropTable('template_versions');
  await db.schema.dropTable('templates');
}
