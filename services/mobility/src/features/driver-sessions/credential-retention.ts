import { inTransactionHoldingLock, type Knex } from '@platform/service-kit/db';
import { runPeriodically } from '@platform/service-kit/shutdown';
import type { Logger } from '@platform/service-kit/logger';

/** The Postgres advisory lock that lets one worker at a time run the driver credential clean-up ("mobi" + 2). */
export const DRIVER_CREDENTIAL_RETENTION_LOCK = 0x6d6f6269_02;
/** Ended sessions and expired codes are kept this long (for support questions), then deleted. */
export const DRIVER_CREDENTIAL_RETENTION_DAYS = 30;
const EVERY_HOUR_MS = 60 * 60 * 1000;

export type DriverCredentialRetentionRun =
  | { ran: true; deleted_refresh_tokens: number; deleted_sessions: number; deleted_codes: number }
  | { ran: false; reason: 'another worker is running it' };

/**
 * Every refresh adds a row, so spent credentials are deleted: refresh tokens a day after they expired (a spent one is
 * kept until then so its reuse is still detected), sessions ended `retentionDays` ago or without a live refresh token
 * for a day (their tokens go with them), and activation codes `retentionDays` after they expired.
 */
export async function deleteSpentDriverCredentials(db: Knex, retentionDays = DRIVER_CREDENTIAL_RETENTION_DAYS): Promise<DriverCredentialRetentionRun> {
  const run = await inTransactionHoldingLock(db, DRIVER_CREDENTIAL_RETENTION_LOCK, async (trx) => {
    const dayAgo = trx.raw("now() - interval '1 day'");
    const cutoff = trx.raw('now() - make_interval(days => ?)', [retentionDays]);
    const deletedTokens = await trx('driver_refresh_tokens').where('expires_at', '<', dayAgo).delete();
    const deletedSessions = await trx('driver_sessions')
      .where((old) =>
        old
          .where('revoked_at', '<', cutoff)
          .orWhere((idle) => idle.where('created_at', '<', dayAgo).whereNotExists(trx('driver_refresh_tokens').select(trx.raw('1')).whereRaw('driver_refresh_tokens.session_id = driver_sessions.id'))),
      )
      .delete();
    const deletedCodes = await trx('driver_activation_codes').where('expires_at', '<', cutoff).delete();
    return { ran: true, deleted_refresh_tokens: deletedTokens, deleted_sessions: deletedSessions, deleted_codes: deletedCodes } as const;
  });
  return run ?? { ran: false, reason: 'another worker is running it' };
}

/** Runs the clean-up at start-up and then hourly in the worker; `stop` waits for a run in progress. */
export function scheduleDriverCredentialRetention(db: Knex, logger: Logger, everyMs = EVERY_HOUR_MS) {
  return runPeriodically(
    () =>
      deleteSpentDriverCredentials(db)
        .then((result) => {
          if (result.ran && result.deleted_refresh_tokens + result.deleted_sessions + result.deleted_codes > 0) logger.info(result, 'spent driver credentials deleted');
        })
        .catch((err: unknown) => logger.error({ err }, 'driver credential retention job failed')),
    everyMs,
  );
}
