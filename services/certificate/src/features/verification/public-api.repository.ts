import type { Knex } from '@platform/service-kit';

export interface KeyOwner {
  key_id: string;
  organization_id: string;
  organization_name: string;
}

export interface CreditsRow extends KeyOwner {
  balance: number;
  plan: string;
}

export interface VerificationRow extends KeyOwner {
  certificate_id: string | null;
  recipient_name: string | null;
  program_title: string | null;
  issue_date: string | null;
  certificate_number: string | null;
  status: string | null;
  expires_on: string | null;
}

/**
 * The two public reads, each one round trip that authenticates the key (active, by hash) and reads inside its
 * organization only.
 */
export function publicApiRepository(db: Knex) {
  return {
    async credits(tokenHash: string): Promise<CreditsRow | undefined> {
      const { rows } = await db.raw(
        `select k.id as key_id, o.id as organization_id, o.name as organization_name, o.balance, coalesce(u.plan, 'free') as plan
           from api_keys k
           join organizations o on o.id = k.organization_id
           left join users u on u.organization_id = k.organization_id and u.id = k.user_id
          where k.token_hash = ? and k.status = 'active'`,
        [tokenHash],
      );
      return rows[0];
    },
    async verification(tokenHash: string, code: string | null): Promise<VerificationRow | undefined> {
      const { rows } = await db.raw(
        `select k.id as key_id, o.id as organization_id, o.name as organization_name,
                c.id as certificate_id, c.recipient_name, c.program_title, c.issue_date,
                c.certificate_number, c.status, c.expires_on
           from api_keys k
           join organizations o on o.id = k.organization_id
           left join certificates c on c.organization_id = k.organization_id and c.verification_code = ?
          where k.token_hash = ? and k.status = 'active'`,
        [code ?? '', tokenHash],
      );
      return rows[0];
    },
  };
}
