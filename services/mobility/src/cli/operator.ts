/**
 * What the operator CLI (`pnpm platform`, scripts/platform.ts) does in the mobility service's database: the service's own
 * features behind a few calls, so the CLI never reaches into a repository. Opening it applies pending migrations, as the
 * server does; Redis is never contacted (registering a driver touches only Postgres).
 */
import { createLogger } from '@platform/service-kit/logger';
import { createRedis } from '@platform/service-kit/redis';
import { loadConfigOrExit } from '@platform/service-kit/config';
import { openServiceDatabase } from '@platform/service-kit/bootstrap';
import { parseOrThrow } from '@platform/service-kit/validation';
import type { AdminClaims } from '@platform/service-kit/admin-auth';
import type { Knex } from '@platform/service-kit/db';
import { MOBILITY_SCHEMA, mobilityConfigSchema, type MobilityConfig } from '../config';
import { migrations } from '../db/migrations';
import { apiKeyCapsOf, createKeySchema, createMobilityApiKeys, MOBILITY_SCOPES } from '../features/api-keys';
import { createFleetLocations, createFleetRepository, createFleetService, type DriverView, registerDriverSchema, toDriverView } from '../features/fleet';
import { createDriverSessionService, createDriverSessionsRepository, type IssuedActivationCode } from '../features/driver-sessions';
import { createPartnersRepository } from '../features/partners';

export { MOBILITY_SCOPES };

export interface MobilityKeyInput {
  organizationId: string;
  organizationName?: string;
  userId: string;
  name: string;
  scopes: string[];
  /** `test` makes an `mk_test_…` key (test mode: sandbox data only). */
  mode?: 'live' | 'test';
}

export function loadMobilityConfig(): MobilityConfig {
  return loadConfigOrExit(mobilityConfigSchema, 'platform');
}

export async function openMobilityOperator(config: MobilityConfig = loadMobilityConfig()) {
  const db: Knex = await openServiceDatabase(config.databaseUrl, MOBILITY_SCHEMA, migrations, createLogger('platform', 'warn'), 2);
  // Never connected: the fleet service needs its locations only for dispatch, which the CLI does not do.
  const redis = createRedis(config.REDIS_URL, { lazyConnect: true });
  const apiKeys = createMobilityApiKeys(db, apiKeyCapsOf(config));
  const fleet = createFleetService(db, createFleetRepository(db), createFleetLocations(redis, config.REDIS_PREFIX));
  const partners = createPartnersRepository(db);
  const driverSessions = createDriverSessionService(db, createDriverSessionsRepository(db), fleet, {
    jwtSecret: config.JWT_SECRET,
    jwtIssuer: config.JWT_ISSUER,
    accessTokenTtlSeconds: config.DRIVER_ACCESS_TOKEN_TTL_S,
    refreshTokenTtlSeconds: config.DRIVER_REFRESH_TOKEN_TTL_S,
  });

  return {
    config,
    async partnerExists(id: string): Promise<boolean> {
      return Boolean(await db('partners').where({ id }).first('id'));
    },
    /** A scoped `mk_` key for the organization (its partner row is created on first sight, as the admin API does). */
    async createKey(input: MobilityKeyInput) {
      const body = parseOrThrow(createKeySchema, { name: input.name, scopes: input.scopes, ...(input.mode ? { mode: input.mode } : {}) }) as { name: string; scopes?: string[]; mode?: 'live' | 'test' };
      await partners.ensurePartner({ id: input.organizationId, name: input.organizationName });
      const create = { organizationId: input.organizationId, userId: input.userId, name: body.name, scopes: body.scopes, livemode: body.mode !== 'test' };
      return apiKeys.create(create);
    },
    /** Registers a driver or courier as the organization's operator would (`POST /admin/v1/drivers`). */
    async registerDriver(admin: Pick<AdminClaims, 'org' | 'role'> & { org_name?: string }, input: unknown): Promise<DriverView> {
      const body = parseOrThrow(registerDriverSchema, input);
      await partners.ensurePartner({ id: admin.org, name: admin.org_name });
      // The answer carries the driver's first sign-in code (`activation_code`), issued in the registering transaction.
      return fleet.registerDriver(admin, body, driverSessions.firstActivationCode);
    },
    /** A fresh one-time sign-in code (earlier unused codes and the driver's open session end), as the admin API does. */
    async issueActivationCode(driverId: string): Promise<IssuedActivationCode> {
      return driverSessions.issueActivationCode(undefined, driverId);
    },
    async findDriver(id: string): Promise<DriverView | undefined> {
      const driver = await fleet.findDriver(id);
      return driver ? toDriverView(driver) : undefined;
    },
    async close(): Promise<void> {
      redis.disconnect();
      await db.destroy();
    },
  };
}

export type MobilityOperator = Awaited<ReturnType<typeof openMobilityOperator>>;
