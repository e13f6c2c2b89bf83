import { ConflictError, NotFoundError, UnauthorizedError } from '@platform/service-kit/errors';
import { isIdOf, newId } from '@platform/service-kit/ids';
import type { Knex } from '@platform/service-kit/db';
import { type Driver, type FleetService, type OnDriverRegistered, toDriverView } from '../fleet';
import type { DriverSessionsRepository } from './driver-sessions.repository';
import { isRefreshTokenShaped, newActivationCode, newRefreshToken, normalizeActivationCode, secretHash, signAccessToken } from './driver-credentials';
import type { z } from 'zod';
import type { activationCodeResponse, registeredDriverResponse } from '../fleet';
import type { driverSessionResponse } from './driver-sessions.schema';

/** An activation code is good for 24 hours after it was issued. */
export const ACTIVATION_CODE_TTL_SECONDS = 24 * 60 * 60;

export interface DriverSessionSettings {
  jwtSecret: string;
  jwtIssuer: string;
  /** At most 3600. */
  accessTokenTtlSeconds: number;
  /** Each refresh token lives this long from its issue; every refresh hands out a fresh one. */
  refreshTokenTtlSeconds: number;
}

/** A fresh activation code as answered (its response schema's type). */
export type IssuedActivationCode = z.input<typeof activationCodeResponse>;
/** What a registration's answer adds: the driver's first code and when it expires. */
export type FirstActivationCode = Pick<z.input<typeof registeredDriverResponse>, 'activation_code' | 'activation_code_expires_at'>;

/** A signed-in session as answered (its response schema's type). */
export type DriverSessionTokens = z.input<typeof driverSessionResponse>;

const invalidCode = () => new UnauthorizedError('Activation code is invalid or has already been used', 'invalid_activation_code');
const invalidRefresh = (why: string) => new UnauthorizedError(why, 'invalid_refresh_token');
const disabled = () => new UnauthorizedError('This driver has been disabled by its operator', 'driver_disabled');

/** A sign-in failure the throttle counts (a wrong, used, replaced or expired code). */
export function isGuessFailure(error: unknown): boolean {
  return error instanceof UnauthorizedError && (error.code === 'invalid_activation_code' || error.code === 'activation_code_expired');
}

/**
 * Activation codes: one-time codes a driver signs in with, issued at registration and by an operator (which also ends
 * the driver's sessions: a lost device shut out). A new code supersedes the driver's earlier unused ones.
 */
function activationCodes(db: Knex, repository: DriverSessionsRepository, fleet: Pick<FleetService, 'findDriver'>) {
  /**
   * Issues a fresh one-time activation code for a driver on `conn` (the caller's transaction when it has one): earlier unused
   * codes stop working. Only the hash is stored; the code itself is in the answer only.
   */
  async function issueDriverActivationCode(conn: Knex, driver: Pick<Driver, 'id' | 'organizationId'>): Promise<IssuedActivationCode> {
    if (!(conn as Knex.Transaction).isTransaction) return conn.transaction((trx) => issueDriverActivationCode(trx, driver));
    await repository.lockDriverCodes(conn as Knex.Transaction, driver.id);
    const code = newActivationCode();
    await repository.supersedeOpenCodes(conn, driver.id);
    const row = await repository.insertActivationCode(conn, {
      id: newId('dac'),
      driver_id: driver.id,
      organization_id: driver.organizationId,
      code_hash: secretHash(normalizeActivationCode(code)!),
      expires_at: new Date(Date.now() + ACTIVATION_CODE_TTL_SECONDS * 1000),
    });
    return { activation_code: code, expires_at: row.expires_at.toISOString() };
  }

  /**
   * The registration hook (`fleet.registerDriver(admin, input, driverSessions.firstActivationCode)`): the new driver's first
   * code, issued in the registering transaction, merged into the answer as `activation_code` and `activation_code_expires_at`.
   */
  const firstActivationCode: OnDriverRegistered<FirstActivationCode> = async (trx, driver) => {
    const code = await issueDriverActivationCode(trx, driver);
    return { activation_code: code.activation_code, activation_code_expires_at: code.expires_at };
  };

  return {
    issueDriverActivationCode,
    firstActivationCode,

    /**
     * An operator's fresh code for one of its organization's drivers (another organization's: 404). Earlier unused codes stop
     * working and the driver's open sessions end: this is how a lost or replaced device is shut out and a driver recovered.
     */
    async issueActivationCode(organizationId: string | undefined, driverId: string): Promise<IssuedActivationCode> {
      const driver = isIdOf('drv', driverId) ? await fleet.findDriver(driverId) : undefined;
      if (!driver || (organizationId !== undefined && driver.organizationId !== organizationId)) throw new NotFoundError('Driver not found');
      if (driver.disabledAt) throw new ConflictError('This driver is disabled; a disabled driver cannot sign in', 'driver_disabled');
      return db.transaction(async (trx) => {
        // The code first: superseding waits for a sign-in in progress with the old code, so the session it opened is seen here.
        const issued = await issueDriverActivationCode(trx, driver);
        await repository.revokeDriverSessions(trx, driver.id, 'new_activation_code');
        return issued;
      });
    },
  };
}

/** The driver app's sessions and their tokens: signing in with a code, rotating the refresh token, signing out. */
function driverSessions(db: Knex, repository: DriverSessionsRepository, fleet: Pick<FleetService, 'findDriver'>, settings: DriverSessionSettings) {
  async function openSession(trx: Knex.Transaction, driver: Driver, activationCodeId: string): Promise<DriverSessionTokens> {
    const sessionId = newId('dss');
    await repository.insertSession(trx, { id: sessionId, driver_id: driver.id, activation_code_id: activationCodeId });
    await repository.revokeDriverSessions(trx, driver.id, 'signed_in_elsewhere', sessionId); // one signed-in device per driver
    return { ...(await tokensFor(trx, driver, sessionId)), driver: toDriverView(driver) };
  }

  async function tokensFor(trx: Knex.Transaction, driver: Driver, sessionId: string) {
    const refreshToken = newRefreshToken();
    const refreshExpiresAt = new Date(Date.now() + settings.refreshTokenTtlSeconds * 1000);
    await repository.insertRefreshToken(trx, { token_hash: secretHash(refreshToken), session_id: sessionId, expires_at: refreshExpiresAt });
    return {
      access_token: signAccessToken(driver.id, sessionId, { secret: settings.jwtSecret, issuer: settings.jwtIssuer, ttlSeconds: settings.accessTokenTtlSeconds }),
      token_type: 'Bearer' as const,
      expires_in: settings.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      refresh_token_expires_at: refreshExpiresAt.toISOString(),
    };
  }

  return {
    /** Exchanges a one-time activation code for the first access and refresh token of a new session. */
    async signIn(activationCode: string): Promise<DriverSessionTokens> {
      const normalized = normalizeActivationCode(activationCode);
      if (!normalized) throw invalidCode();
      return db.transaction(async (trx) => {
        const code = await repository.lockActivationCode(trx, secretHash(normalized));
        if (!code || code.used_at || code.superseded_at) throw invalidCode();
        if (code.expires_at.getTime() <= Date.now()) {
          throw new UnauthorizedError('Activation code has expired; ask your operator for a new one', 'activation_code_expired');
        }
        const driver = await fleet.findDriver(code.driver_id, trx);
        if (!driver) throw invalidCode();
        if (driver.disabledAt) throw disabled();
        await repository.markCodeUsed(trx, code.id);
        return openSession(trx, driver, code.id);
      });
    },

    /**
     * Rotates a refresh token: the one presented is spent and a new access and refresh token are answered. A spent token
     * presented again means it leaked (or the app replayed it): the whole session is revoked, its every token with it.
     */
    async refresh(refreshToken: string): Promise<DriverSessionTokens> {
      if (!isRefreshTokenShaped(refreshToken)) throw invalidRefresh('Refresh token is invalid');
      const outcome = await db.transaction(async (trx) => {
        const token = await repository.lockRefreshToken(trx, secretHash(refreshToken));
        if (!token) throw invalidRefresh('Refresh token is invalid');
        if (token.session_revoked_at) throw new UnauthorizedError('This session has ended; sign in again with a new activation code', 'session_revoked');
        if (token.rotated_at) {
          await repository.revokeSession(trx, token.session_id, 'refresh_token_reused');
          return 'reused' as const; // committed before the refusal is answered
        }
        if (token.expires_at.getTime() <= Date.now()) throw invalidRefresh('Refresh token has expired; sign in again with a new activation code');
        const driver = await fleet.findDriver(token.driver_id, trx);
        if (!driver) throw invalidRefresh('Refresh token is invalid');
        if (driver.disabledAt) throw disabled();
        await repository.markRotated(trx, token.token_hash, token.session_id);
        return { ...(await tokensFor(trx, driver, token.session_id)), driver: toDriverView(driver) };
      });
      if (outcome === 'reused') {
        throw new UnauthorizedError('Refresh token was already used; the session has been revoked, sign in again', 'refresh_token_reused');
      }
      return outcome;
    },

    /** Ends the session: its access token is refused from the next request on, its refresh token too. */
    async signOut(sessionId: string): Promise<void> {
      await repository.revokeSession(db, sessionId, 'signed_out');
    },

    /** Whether an access token's session is still open (for `requireDriver`). */
    isActive(sessionId: string, driverId: string): Promise<boolean> {
      return repository.isSessionActive(sessionId, driverId);
    },
  };
}

/** A driver's way into the app: activation codes, and the sessions they open. */
export function createDriverSessionService(db: Knex, repository: DriverSessionsRepository, fleet: Pick<FleetService, 'findDriver'>, settings: DriverSessionSettings) {
  return { ...activationCodes(db, repository, fleet), ...driverSessions(db, repository, fleet, settings) };
}

export type DriverSessionService = ReturnType<typeof createDriverSessionService>;
