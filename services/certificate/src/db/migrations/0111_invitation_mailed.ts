import type { Knex } from 'knex';

/**
 * When an invitation was mailed to the address it names: the mail proves that address, so signing up with the mailed
 * link's token and the same address makes the account verified at once (no second confirmation mail). A link the
 * inviter copied and handed over proves nothing (null).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('invitations', (t) => {
    t.timestamp('mailed_at', { useTz: true });
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('invitations', (t) => {
    t.dropColumn('mailed_at');
  });
}
