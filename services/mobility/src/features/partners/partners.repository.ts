import type { Knex } from '@platform/service-kit/db';

/** The partners (organizations) the platform knows. */
export interface PartnersRepository {
  /** Creates the partner (organization) on first sight; a later `org_name` claim fills in a missing name. */
  ensurePartner(partner: { id: string; name?: string }): Promise<void>;
}

/** The Postgres `partners` table. */
export function createPartnersRepository(db: Knex): PartnersRepository {
  return {
    async ensurePartner(partner) {
      await db('partners')
        .insert({ id: partner.id, name: partner.name ?? null })
        .onConflict('id')
        .merge(partner.name ? { name: partner.name } : ['id']);
    },
  };
}
