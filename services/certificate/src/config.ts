import { z } from 'zod';
import { DEFAULT_DATABASE_URL, env, jwtSecretSchema, jwtSettingsConfig, requireStrongSecretsInProduction } from '@platform/service-kit';

export const certificateConfigSchema = z
  .object({
    NODE_ENV: env.nodeEnv(),
    PORT: env.port(3001),
    DATABASE_URL: env.url(DEFAULT_DATABASE_URL),
    CERTIFICATE_DATABASE_URL: env.optionalUrl(),
    JWT_SECRET: jwtSecretSchema(),
    // Every token's `iss`, and the longest lifetime of an admin token (12 h by default).
    ...jwtSettingsConfig,
    LOG_LEVEL: env.logLevel(),
    // Seconds a process trusts a cached API key between change notifications (0: no cache; see README).
    API_KEY_CACHE_TTL_S: z.coerce.number().int().min(0).max(3600).default(60),
    GATEWAY_A_SECRET_KEY: z.string().optional(),
    GATEWAY_A_BASE_URL: env.optionalUrl(),
    GATEWAY_A_SIGNATURE_HEADER: z.string().default('x-gateway-signature'),
    GATEWAY_B_SECRET_KEY: z.string().optional(),
    GATEWAY_B_PUBLIC_KEY: z.string().optional(),
    GATEWAY_B_ENCRYPTION_KEY: z.string().optional(),
    GATEWAY_B_SECRET_HASH: z.string().optional(),
    GATEWAY_B_BASE_URL: env.optionalUrl(),
    GATEWAY_B_HASH_HEADER: z.string().default('x-webhook-hash'),
    PAYMENT_VERIFY_TIMEOUT_MS: env.positiveInt(10000),
    PAYMENT_WEBHOOK_RETENTION_DAYS: env.positiveInt(30),
    /** Where partners and the public reach the gateway: credential page links, QR codes and Open Graph images use it. */
    PUBLIC_BASE_URL: env.url('http://127.0.0.1:8080'),
  })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET', 'GATEWAY_A_SECRET_KEY', 'GATEWAY_B_SECRET_KEY', 'GATEWAY_B_SECRET_HASH']))
  .transform((config) => ({ ...config, databaseUrl: config.CERTIFICATE_DATABASE_URL ?? config.DATABASE_URL }));

export type CertificateConfig = z.infer<typeof certificateConfigSchema>;

export const CERTIFICATE_SCHEMA = 'certificate';
