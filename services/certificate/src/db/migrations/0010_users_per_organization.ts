import type { Knex } from 'knex';

/**
 * A dashboard user is (organization, sub): the same `sub` in two organizations is two users, each with its own plan.
 * Keys and payments point at the user within their own organization. Existing rows migrate: a user row is added for
 * every (organization, sub) a key or payment names, and the plan of every user who has paid is recomputed from the
 * latest successful payment in that user's organization (free when none), so a plan bought elsewhere no longer shows.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table api_keys drop constraint api_keys_user_id_foreign');
  await db.raw('alter table payments drop constraint payments_user_id_foreign');
  await db.raw('alter table users drop constraint users_pkey');
  await db.raw('alter table users add constraint users_pkey primary key (organization_id, id)');
  await db.raw(`
    insert into users (organization_id, id)
    select organization_id, user_id from api_keys
    union
    select organization_id, user_id from payments
    on conflict do nothing`);
  await db.raw(`
    update users u
       set plan = coalesce(
             (select p.plan from payments p
               where p.organization_id = u.organization_id and p.user_id = u.id and p.status = 'succeeded'
               order by p.activated_at desc nulls last, p.created_at desc
               limit 1),
             'free'),
           updated_at = now()
     where exists (select 1 from payments p where p.user_id = u.id and p.status = 'succeeded')`);
  await db.raw(
    'alter table api_keys add constraint api_keys_user_foreign foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade',
  );
  await db.raw(
    'alter table payments add constraint payments_user_foreign foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade',
  );
}

/** Back to one row per `sub`: the oldest row of each `sub` stays; keys and payments of the others lose nothing. */
export async function down(db: Knex): Promise<void> {
  await db.raw('alter table api_keys drop constraint api_keys_user_foreign');
  await db.raw('alter table payments drop constraint payments_user_foreign');
  await db.raw(`
    delete from users u using users older
     where older.id = u.id and (older.created_at, older.organization_id) < (u.created_at, u.organization_id)`);
  await db.raw('alter table users drop constraint users_pkey');
  await db.raw('alter table users add constraint users_pkey primary key (id)');
  await db.raw('alter table api_keys add constraint api_keys_user_id_foreign foreign key (user_id) references users (id) on delete cascade');
  await db.raw('alter table payments add constraint payments_user_id_foreign foreign key (user_id) references users (id) on delete cascade');
}
