import type { Knex } from '@platform/service-kit/db';

export type EmailTokenPurpose = 'sign_up' | 'password_reset';

/** What a pending sign-up keeps until its email is confirmed (the password only as its scrypt hash). */
export interface PendingSignUp {
  name: string;
  password_hash: string;
  organization_name?: string;
  invitation_token?: string;
}

export interface EmailTokenRow {
  id: string;
  purpose: EmailTokenPurpose;
  email: string;
  account_id: string | null;
  sign_up: PendingSignUp | null;
}

/** Mailed one-time secrets (`email_tokens`), stored as SHA-256 hashes with an expiry. */
export function createEmailTokensRepository(db: Knex) {
  return {
    async insert(row: { id: string; purpose: EmailTokenPurpose; token_hash: string; email: string; account_id?: string; sign_up?: PendingSignUp; expires_at: Date }, trx: Knex = db): Promise<void> {
      await trx('email_tokens').insert({ ...row, sign_up: row.sign_up ? JSON.stringify(row.sign_up) : null });
    },
    /** A live (unused, unexpired) token of that purpose, without using it. */
    async findLive(purpose: EmailTokenPurpose, hash: string): Promise<EmailTokenRow | undefined> {
      return (await db('email_tokens')
        .where({ purpose, token_hash: hash })
        .whereNull('used_at')
        .where('expires_at', '>', db.fn.now())
        .first('id', 'purpose', 'email', 'account_id', 'sign_up')) as EmailTokenRow | undefined;
    },
    /** Voids every unused sign-up link for this address (case-insensitively): a newer sign-up replaces them. */
    async voidSignUps(trx: Knex, email: string): Promise<void> {
      await trx('email_tokens').where({ purpose: 'sign_up' }).whereRaw('lower(email) = lower(?)', [email]).whereNull('used_at').update({ used_at: trx.fn.now() });
    },
    /** Uses a live token of that purpose once (inside the caller's transaction); undefined when unknown, expired or used. */
    async use(trx: Knex, purpose: EmailTokenPurpose, hash: string): Promise<EmailTokenRow | undefined> {
      const [row] = await trx('email_tokens')
        .where({ purpose, token_hash: hash })
        .whereNull('used_at')
        .where('expires_at', '>', trx.fn.now())
        .update({ used_at: trx.fn.now() })
        .returning(['id', 'purpose', 'email', 'account_id', 'sign_up']);
      return row as EmailTokenRow | undefined;
    },
    /** Voids every unused token of that purpose for the account (a reset link used: the older ones die with it). */
    async voidAll(trx: Knex, purpose: EmailTokenPurpose, accountId: string): Promise<void> {
      await trx('email_tokens').where({ purpose, account_id: accountId }).whereNull('used_at').update({ used_at: trx.fn.now() });
    },
  };
}

export type EmailTokensRepository = ReturnType<typeof createEmailTokensRepository>;
