import type { Knex } from '@platform/service-kit';

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

/** Serializes code issues for one driver until the caller's transaction ends (two at once would leave two live codes). */
export async function lockDriverCodes(trx: Knex.Transaction, driverId: string): Promise<void> {
  await trx.raw("select pg_advisory_xact_lock(hashtext('driver-activation-codes:' || ?))", [driverId]);
}

/** Marks the driver's unused codes as replaced, so only the newest one signs in. */
export async function supersedeOpenCodes(db: Knex, driverId: string): Promise<void> {
  await db('driver_activation_codes').where({ driver_id: driverId }).whereNull('used_at').whereNull('superseded_at').update({ superseded_at: db.fn.now() });
}

export async function insertActivationCode(db: Knex, row: Pick<ActivationCodeRow, 'id' | 'driver_id' | 'organization_id' | 'code_hash' | 'expires_at'>): Promise<ActivationCodeRow> {
  const [inserted] = await db('driver_activation_codes').insert(row).returning('*');
  return inserted as ActivationCodeRow;
}

/** The code with this hash, locked until the caller's transaction ends (two sign-ins with one code: one wins). */
export async function lockActivationCode(trx: Knex.Transaction, codeHash: string): Promise<ActivationCodeRow | undefined> {
  return (await trx('driver_activation_codes').where({ code_hash: codeHash }).forUpdate().first()) as ActivationCodeRow | undefined;
}

export async function markCodeUsed(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('driver_activation_codes').where({ id }).update({ used_at: trx.fn.now() });
}

export async function insertSession(trx: Knex.Transaction, session: { id: string; driver_id: string; activation_code_id: string }): Promise<void> {
  await trx('driver_sessions').insert(session);
}

/** Ends every open session of the driver (but `exceptId`); their access and refresh tokens are refused from then on. */
export async function revokeDriverSessions(db: Knex, driverId: string, reason: RevokeReason, exceptId?: string): Promise<number> {
  const query = db('driver_sessions').where({ driver_id: driverId }).whereNull('revoked_at');
  if (exceptId) query.whereNot({ id: exceptId });
  return query.update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

/** Ends one session (again: no change). */
export async function revokeSession(db: Knex, id: string, reason: RevokeReason): Promise<void> {
  await db('driver_sessions').where({ id }).whereNull('revoked_at').update({ revoked_at: db.fn.now(), revoked_reason: reason });
}

export async function isSessionActive(db: Knex, id: string, driverId: string): Promise<boolean> {
  const row = await db('driver_sessions').where({ id, driver_id: driverId }).whereNull('revoked_at').first('id');
  return row !== undefined;
}

export async function insertRefreshToken(trx: Knex.Transaction, row: { token_hash: string; session_id: string; expires_at: Date }): Promise<void> {
  await trx('driver_refresh_tokens').insert(row);
}

/** The refresh token with this hash and its session, both locked until the caller's transaction ends. */
export async function lockRefreshToken(trx: Knex.Transaction, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return (await trx('driver_refresh_tokens as t')
    .join('driver_sessions as s', 's.id', 't.session_id')
    .where('t.token_hash', tokenHash)
    .forUpdate()
    .first('t.token_hash', 't.session_id', 't.expires_at', 't.rotated_at', 's.driver_id', 's.revoked_at as session_revoked_at')) as RefreshTokenRow | undefined;
}

export async function markRotated(trx: Knex.Transaction, tokenHash: string, sessionId: string): Promise<void> {
  await trx('driver_refresh_tokens').where({ token_hash: tokenHash }).update({ rotated_at: trx.fn.now() });
  await trx('driver_sessions').where({ id: sessionId }).update({ last_refreshed_at: trx.fn.now() });
}
