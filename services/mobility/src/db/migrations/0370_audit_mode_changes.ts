import type { Knex } from 'knex';

/**
 * Each audit log entry says which data the change was made to (`mode`: live or test; null for an entry written before,
 * or by no admin) and, for an update or a delete, the object's changed fields before and after it (never a secret).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('audit_log', (t) => {
    t.text('mode');
    t.jsonb('before');
    t.jsonb('after');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('audit_log', (t) => {
    t.dropColumns('mode', 'before', 'after');
  });
}
