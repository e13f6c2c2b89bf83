import type { Knex } from '@platform/service-kit';

/** Creates the partner (organization) on first sight; a later `org_name` claim fills in a missing name. */
export async function ensurePartner(db: Knex, partner: { id: string; name?: string }): Promise<void> {
  await db('partners')
    .insert({ id: partner.id, name: partner.name ?? null })
    .onConflict('id')
    .merge(partner.name ? { name: partner.name } : ['id']);
}
