import { z } from 'zod';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, env, jwtSecretSchema, jwtSettingsConfig, requireStrongSecretsInProduction } from '@platform/service-kit';

export const mobilityConfigSchema = z
  .object({
    NODE_ENV: env.nodeEnv(),
    PORT: env.port(3002),
    DATABASE_URL: env.url(DEFAULT_DATABASE_URL),
    MOBILITY_DATABASE_URL: env.optionalUrl(),
    REDIS_URL: env.url(DEFAULT_REDIS_URL),
    REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, _ . or -').default('platform'),
    JWT_SECRET: jwtSecretSchema(),
    // Every token's `iss`, and the longest lifetime of an admin token (12 h by default).
    ...jwtSettingsConfig,
    LOG_LEVEL: env.logLevel(),
    /** Key for encrypting stored webhook endpoint secrets (optional until that encryption ships). */
    WEBHOOK_SECRET_KEY: z.string().optional(),
    WEBHOOK_ALLOW_HTTP: env.boolean(false),
    WEBHOOK_ALLOW_PRIVATE: env.boolean(false),
    WEBHOOK_MAX_ATTEMPTS: env.positiveInt(10),
    WEBHOOK_BACKOFF_MS: env.positiveInt(30000),
    WEBHOOK_TIMEOUT_MS: env.positiveInt(10000),
    // Beyond the contract: worker tuning, documented in services/mobility/README.md.
    WEBHOOK_CONCURRENCY: env.positiveInt(50),
    WEBHOOK_ENDPOINT_CONCURRENCY: env.positiveInt(10),
    WEBHOOK_RELAY_INTERVAL_MS: env.positiveInt(500),
    WEBHOOK_JOB_LOCK_MS: env.positiveInt(30000),
    WORKER_METRICS_PORT: z.coerce.number({ message: 'must be a port number' }).int('must be a port number').min(0).max(65535).optional(),
    DISPATCH_RADIUS_M: env.positiveInt(5000),
    DISPATCH_OFFER_TTL_S: env.positiveInt(15),
    DISPATCH_TIMEOUT_S: env.positiveInt(120),
  })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET', 'WEBHOOK_SECRET_KEY']))
  .transform((config) => ({ ...config, databaseUrl: config.MOBILITY_DATABASE_URL ?? config.DATABASE_URL }));

export type MobilityConfig = z.infer<typeof mobilityConfigSchema>;

export const MOBILITY_SCHEMA = 'mobility';
