import { z } from 'zod';
import { parseSigningKey } from './features/credentials/signing-key';
import { DEFAULT_DATABASE_URL, env, jwtSecretSchema, jwtSettingsConfig, publicAddressConfig, requirePublicAddressesInProduction, requireStrongSecretsInProduction } from '@platform/service-kit';

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
    /**
     * The Ed25519 private key that signs the verifiable credentials and status lists (PKCS#8 PEM or a private JWK).
     * Unset outside production: a fixed, published development key (see README). Required in production; never logged.
     */
    CREDENTIAL_SIGNING_KEY: z
      .string()
      .optional()
      .superRefine((value, ctx) => {
        const problem = value === undefined ? undefined : parseSigningKey(value);
        if (typeof problem === 'string') ctx.addIssue({ code: 'custom', message: problem });
      }),
    /** Where partners and the public reach the gateway: credential page links, QR codes and Open Graph images use it. */
    PUBLIC_BASE_URL: env.url('http://127.0.0.1:8080'),
    /** Loopback PUBLIC_BASE_URL / DASHBOARD_ORIGINS are refused in production unless this says the platform is reached on this machine only. */
    ...publicAddressConfig,
    /** Origins the dashboard is served from: every POST/PATCH/DELETE of `/accounts/v1` must name one in `Origin`. */
    DASHBOARD_ORIGINS: z
      .string()
      .default('http://localhost:8080,http://127.0.0.1:8080')
      .transform((text) => text.split(',').map((origin) => origin.trim()).filter(Boolean))
      .pipe(z.array(z.url().refine((url) => new URL(url).origin === url, 'each must be an origin: scheme://host[:port], no path')).min(1, 'must name at least one origin')),
    /** A dashboard sign-in lasts this many days after its last refresh. */
    REFRESH_TOKEN_TTL_DAYS: env.positiveInt(30),
    INVITATION_TTL_DAYS: env.positiveInt(7),
    /** Sign-in throttle: failures per account (email) and per client address within one window of this many seconds. */
    SIGN_IN_WINDOW_S: env.positiveInt(900),
    SIGN_IN_MAX_FAILURES_PER_ACCOUNT: env.positiveInt(10),
    SIGN_IN_MAX_FAILURES_PER_ADDRESS: env.positiveInt(50),
    /** Proxies in front of the service (the gateway: 1): the throttle reads the client address from `X-Forwarded-For` that many hops back. */
    TRUST_PROXY_HOPS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(0),
  })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET', 'GATEWAY_A_SECRET_KEY', 'GATEWAY_B_SECRET_KEY', 'GATEWAY_B_SECRET_HASH']))
  .superRefine(requirePublicAddressesInProduction(['PUBLIC_BASE_URL', 'DASHBOARD_ORIGINS']))
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && !config.CREDENTIAL_SIGNING_KEY) {
      ctx.addIssue({ code: 'custom', path: ['CREDENTIAL_SIGNING_KEY'], message: 'is required when NODE_ENV=production (an Ed25519 private key, PKCS#8 PEM or JWK)' });
    }
  })
  .transform((config) => ({ ...config, databaseUrl: config.CERTIFICATE_DATABASE_URL ?? config.DATABASE_URL }));

export type CertificateConfig = z.infer<typeof certificateConfigSchema>;

export const CERTIFICATE_SCHEMA = 'certificate';
