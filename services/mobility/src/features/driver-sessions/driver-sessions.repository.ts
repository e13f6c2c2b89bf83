import type { Knex } from '@platform/service-kit/db';

export type RevokeReason = 'signed_out' | 'refresh_token_reused' | 'new_activation_code' | 'signed_in_elsewhere';

export interface ActivationCodeRow {
  id: string;
  driver_id: string;
  organization_id: string;
  code_hash: string;
  expires_at: Date;
  used_at: Date | null;
  superseded_at: Date | null;
  created_at: Date;
}

export interface RefreshTokenRow {
  token_hash: string;
  session_id: string;
  expires_at: Date;
  rotated_at: Date | null;
  driver_id: string;
  session_revoked_at: Date | null;
}

/** Drivers' activation codes, sessions and refresh tokens; most methods run in the caller's transaction (`trx`) or on the connection it gives (`conn`). */
export interface DriverSessionsRepository {
  /** Serializes code issues for one driver until the caller's transaction ends (two at once would leave two live codes). */
  lockDriverCodes(trx: Knex.Transaction, driverId: string): Promise<void>;
  /** Marks the driver's unused codes as replaced, so only the newest one signs in. */
  supersedeOpenCodes(conn: Knex, driverId: string): Promise<void>;
  insertActivationCode(conn: Knex, row: Pick<ActivationCodeRow, 'id' | 'driver_id' | 'organization_id' | 'code_hash' | 'expires_at'>): Promise<ActivationCodeRow>;
  /** The code with this hash, locked until the caller's transaction ends (two sign-ins with one code: one wins). */
  lockActivationCode(trx: Knex.Transaction, codeHash: string): Promise<ActivationCodeRow | undefined>;
  markCodeUsed(trx: Knex.Transaction, id: string): Promise<void>;
  insertSession(trx: Knex.Transaction, session: { id: string; driver_id: string; activation_code_id: string }): Promise<void>;
  /** Ends every open session of the driver (but `exceptId`); their access and refresh tokens are refused from then on. */
  revokeDriverSessions(conn: Knex, driverId: string, reason: RevokeReason, exceptId?: string): Promise<number>;
  /** Ends one session (again: no change). */
  revokeSession(conn: Knex, id: string, reason: RevokeReason): Promise<void>;
  isSessionActive(id: string, driverId: string): Promise<boolean>;
  insertRefreshToken(trx: Knex.Transaction, row: { token_hash: string; session_id: string; expires_at: Date }): Promise<void>;
  /** The refresh token with this hash and its session, both locked until the caller's transaction ends. */
  lockRefreshToken(trx: Knex.Transaction, tokenHash: string): Promise<RefreshTokenRow | undefined>;
  markRotated(trx: Knex.Transaction, tokenHash: string, sessionId: string): Promise<void>;
}

/** The Postgres activation code, session and refresh token tables. */
export function createDriverSessionsRepository(db: Knex): DriverSessionsRepository {
  return {
    async lockDriverCodes(trx, driverId) {
      await trx.raw("select pg_advisory_xact_lock(hashtext('driver-activation-codes:' || ?))", [driverId]);
    },
    async supersedeOpenCodes(conn, driverId) {
      await conn('driver_activation_codes').where({ driver_id: driverId }).whereNull('used_at').whereNull('superseded_at').update({ superseded_at: conn.fn.now() });
    },
    async insertActivationCode(conn, row) {
      const [inserted] = await conn('driver_activation_codes').insert(row).returning('*');
      return inserted as ActivationCodeRow;
    },
    async lockActivationCode(trx, codeHash) {
      return (await trx('driver_activation_codes').where({ code_hash: codeHash }).forUpdate().first()) as ActivationCodeRow | undefined;
    },
    async markCodeUsed(trx, id) {
      await trx('driver_activation_codes').where({ id }).update({ used_at: trx.fn.now() });
    },
    async insertSession(trx, session) {
      await trx('driver_sessions').insert(session);
    },
    async revokeDriverSessions(conn, driverId, reason, exceptId) {
      const query = conn('driver_sessions').where({ driver_id: driverId }).whereNull('revoked_at');
      if (exceptId) query.whereNot({ id: exceptId });
      return query.update({ revoked_at: conn.fn.now(), revoked_reason: reason });
    },
    async revokeSession(conn, id, reason) {
      await conn('driver_sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: conn.fn.now(), revoked_reason: reason });
    },
    async isSessionActive(id, driverId) {
      const row = await db('driver_sessions').where({ id, driver_id: driverId }).whereNull('revoked_at').first('id');
      return row !== undefined;
    },
    async insertRefreshToken(trx, row) {
      await trx('driver_refresh_tokens').insert(row);
    },
    async lockRefreshToken(trx, tokenHash) {
      return (await trx('driver_refresh_tokens as t')
        .join('driver_sessions as s', 's.id', 't.session_id')
        .where('t.token_hash', tokenHash)
        .forUpdate()
        .first('t.token_hash', 't.session_id', 't.expires_at', 't.rotated_at', 's.driver_id', 's.revoked_at as session_revoked_at')) as RefreshTokenRow | undefined;
    },
    async markRotated(trx, tokenHash, sessionId) {
      await trx('driver_refresh_tokens').where({ token_hash: tokenHash }).update({ rotated_at: trx.fn.now() });
      await trx('driver_sessions').where({ id: sessionId }).update({ last_refreshed_at: trx.fn.now() });
    },
  };
}
