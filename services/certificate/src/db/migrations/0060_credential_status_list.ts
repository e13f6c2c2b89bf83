import type { Knex } from 'knex';

/**
 * Every certificate's place in the revocation status lists: a position drawn from a sequence at insert,
 * never reused or changed, so the bit published for a certificate always stays its own. Existing certificates get one
 * now, in issue order.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('create sequence certificate_status_list_position minvalue 0 start 0');
  await db.raw('alter table certificates add column status_list_position bigint');
  await db.raw(`
    update certificates set status_list_position = numbered.position
    from (select id, nextval('certificate_status_list_position') as position from (select id from certificates order by created_at, id) ordered) numbered
    where certificates.id = numbered.id`);
  await db.raw(`alter table certificates alter column status_list_position set default nextval('certificate_status_list_position')`);
  await db.raw('alter table certificates alter column status_list_position set not null');
  await db.raw('alter sequence certificate_status_list_position owned by certificates.status_list_position');
  await db.raw('create unique index certificates_status_list_position on certificates (status_list_position)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table certificates drop column status_list_position');
  await db.raw('drop sequence if exists certificate_status_list_position');
}
