import { queryRows, type Knex } from '@platform/service-kit/db';

export interface CreditsRow {
  organization_name: string;
  balance: number;
  plan: string;
}

export interface VerificationRow {
  organization_name: string;
  certificate_id: string | null;
  recipient_name: string | null;
  program_title: string | null;
  issue_date: string | null;
  certificate_number: string | null;
  status: string | null;
  expires_on: string | null;
  /** false for a test certificate; null when none was found. */
  livemode: boolean | null;
}

/** A verification row whose certificate was found: the certificate's columns are all set. */
export type FoundVerificationRow = VerificationRow & Record<'certificate_id' | 'recipient_name' | 'program_title' | 'issue_date' | 'certificate_number' | 'status', string> & { livemode: boolean };

export function isFound(row: VerificationRow): row is FoundVerificationRow {
  return row.certificate_id !== null;
}

/** The two public reads, each one round trip inside the authenticated key's organization only (the hottest reads: `queryRows`, not knex.raw). */
export function createPublicApiRepository(db: Knex) {
  return {
    /** The plan is that of the user who created the key. */
    async credits(organizationId: string, keyId: string): Promise<CreditsRow | undefined> {
      const rows = await queryRows<CreditsRow>(
        db,
        `select o.name as organization_name, o.balance, coalesce(u.plan, 'free') as plan
           from organizations o
           left join api_keys k on k.id = $1 and k.organization_id = o.id
           left join users u on u.organization_id = k.organization_id and u.id = k.user_id
          where o.id = $2`,
        [keyId, organizationId],
      );
      return rows[0];
    },
    async verification(organizationId: string, code: string | null): Promise<VerificationRow | undefined> {
      const rows = await queryRows<VerificationRow>(
        db,
        `select o.name as organization_name,
                c.id as certificate_id, c.recipient_name, c.program_title, c.issue_date,
                c.certificate_number, c.status, c.expires_on, c.livemode
           from organizations o
           left join certificates c on c.organization_id = o.id and c.verification_code = $1
          where o.id = $2`,
        [code ?? '', organizationId],
      );
      return rows[0];
    },
  };
}

export type PublicApiRepository = ReturnType<typeof createPublicApiRepository>;
