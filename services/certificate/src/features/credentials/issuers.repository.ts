import type { Knex } from '@platform/service-kit/db';

export interface IssuerKeyRow {
  id: string;
  organization_id: string;
  public_x: string;
  private_key_encrypted: string;
  created_at: Date;
  retired_at: Date | null;
}

export interface IssuerOrganizationRow {
  id: string;
  name: string;
  issuer_domain: string | null;
  issuer_domain_verified_at: Date | null;
}

export interface DomainChallengeRow {
  organization_id: string;
  domain: string;
  token: string;
  created_at: Date;
}

/** Postgres' unique_violation: two first issues raced for an organization's first key. */
const UNIQUE_VIOLATION = '23505';

export function createIssuersRepository(db: Knex) {
  return {
    async organization(id: string): Promise<IssuerOrganizationRow | undefined> {
      return db('organizations').where({ id }).first('id', 'name', 'issuer_domain', 'issuer_domain_verified_at');
    },
    /** Every key of the organization, oldest first (rotated-out ones too: they stay published). */
    async keys(organizationId: string): Promise<IssuerKeyRow[]> {
      return db('issuer_keys').where({ organization_id: organizationId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
    },
    async key(organizationId: string, id: string): Promise<IssuerKeyRow | undefined> {
      return db('issuer_keys').where({ organization_id: organizationId, id }).first();
    },
    async currentKey(organizationId: string, trx: Knex = db): Promise<IssuerKeyRow | undefined> {
      return trx('issuer_keys').where({ organization_id: organizationId }).whereNull('retired_at').first();
    },
    /** Adds the organization's current key; false when another one is current already (a concurrent first issue). */
    async addCurrentKey(row: Omit<IssuerKeyRow, 'created_at' | 'retired_at'>, trx: Knex = db): Promise<boolean> {
      try {
        await trx('issuer_keys').insert(row);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false;
        throw error;
      }
    },
    /** Rotation: retires the current key and adds the new one, one at a time per organization (its row is locked). */
    async rotate(organizationId: string, row: Omit<IssuerKeyRow, 'created_at' | 'retired_at'>): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('organizations').where({ id: organizationId }).forUpdate().first('id');
        await trx('issuer_keys').where({ organization_id: organizationId }).whereNull('retired_at').update({ retired_at: trx.fn.now() });
        await trx('issuer_keys').insert(row);
      });
    },
    /** The key a certificate's credential is signed with: fixed the first time (null: not signed yet). */
    async certificateKey(verificationCode: string): Promise<string | null | undefined> {
      const row = await db('certificates').where({ verification_code: verificationCode }).first('issuer_key_id');
      return row ? (row.issuer_key_id as string | null) : undefined;
    },
    /** Fixes the certificate's signing key unless one is fixed already; answers the key it is signed with. */
    async assignCertificateKey(verificationCode: string, keyId: string): Promise<string> {
      const [updated] = await db('certificates').where({ verification_code: verificationCode }).whereNull('issuer_key_id').update({ issuer_key_id: keyId }).returning('issuer_key_id');
      if (updated) return updated.issuer_key_id as string;
      return (await this.certificateKey(verificationCode)) ?? keyId;
    },
    async challenge(organizationId: string): Promise<DomainChallengeRow | undefined> {
      return db('issuer_domain_challenges').where({ organization_id: organizationId }).first();
    },
    async saveChallenge(row: Omit<DomainChallengeRow, 'created_at'>): Promise<DomainChallengeRow> {
      const [saved] = await db('issuer_domain_challenges')
        .insert({ ...row, created_at: db.fn.now() })
        .onConflict('organization_id')
        .merge()
        .returning('*');
      return saved as DomainChallengeRow;
    },
    /**
     * The organization's domain is proved: it becomes its issuer URL, the pending proof is done, and its stored
     * documents (which say whether the issuer's identity is verified) are drawn again on their next request.
     */
    async markDomainVerified(organizationId: string, domain: string): Promise<IssuerOrganizationRow | undefined> {
      return db.transaction(async (trx) => {
        const [row] = await trx('organizations')
          .where({ id: organizationId })
          .update({ issuer_domain: domain, issuer_domain_verified_at: trx.fn.now() })
          .returning(['id', 'name', 'issuer_domain', 'issuer_domain_verified_at']);
        if (!row) return undefined;
        await trx('issuer_domain_challenges').where({ organization_id: organizationId }).delete();
        await trx('certificate_documents').whereIn('certificate_id', trx('certificates').select('id').where({ organization_id: organizationId })).delete();
        return row as IssuerOrganizationRow;
      });
    },
  };
}

export type IssuersRepository = ReturnType<typeof createIssuersRepository>;
