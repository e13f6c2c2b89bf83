import { z } from 'zod';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, env, jwtSecretSchema } from '@platform/service-kit/config';
import { jwtSettingsConfig } from '@platform/service-kit/admin-auth';
import { publicAddressConfig, requirePublicAddressesInProduction } from '@platform/service-kit/public-address';
import { requireStrongSecretsInProduction } from '@platform/service-kit/secret-strength';

export const mobilityConfigSchema = z
  .object({
    NODE_ENV: env.nodeEnv(),
    PORT: env.port(3002),
    /** The interface PORT (and any metrics port) listens on: 127.0.0.1 unless told otherwise; the image sets 0.0.0.0. */
    BIND_ADDRESS: env.bindAddress(),
    DATABASE_URL: env.url(DEFAULT_DATABASE_URL),
    MOBILITY_DATABASE_URL: env.optionalUrl(),
    REDIS_URL: env.url(DEFAULT_REDIS_URL),
    REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, _ . or -').default('platform'),
    JWT_SECRET: jwtSecretSchema(),
    // Every token's `iss`, and the longest lifetime of an admin token (12 h by default).
    ...jwtSettingsConfig,
    LOG_LEVEL: env.logLevel(),
    FAST_LANES: env.fastLanes(),
    // Seconds a process trusts a cached API key between change notifications (0: no cache; see README).
    API_KEY_CACHE_TTL_S: z.coerce.number().int().min(0).max(3600).default(60),
    /**
     * Encrypts stored webhook signing secrets (AES-256-GCM). Required in production (checked when the app or worker
     * builds its cipher); unset elsewhere, a fixed public development key is used.
     */
    WEBHOOK_SECRET_KEY: z.string().optional(),
    /** The id stored with each encrypted secret; defaults to a fingerprint of WEBHOOK_SECRET_KEY. */
    WEBHOOK_SECRET_KEY_ID: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, _ or -').optional(),
    /** Older keys that still decrypt rows until they are re-encrypted: `id:key` pairs separated by commas. */
    WEBHOOK_SECRET_KEYS_PREVIOUS: z.string().regex(/^([A-Za-z0-9_-]{1,32}:[^,]+)(,[A-Za-z0-9_-]{1,32}:[^,]+)*$/, 'must be comma-separated id:key pairs').optional(),
    /** Endpoints one partner may register (every endpoint is one more POST per event). */
    WEBHOOK_MAX_ENDPOINTS_PER_PARTNER: env.positiveInt(20),
    /** At most one `POST …/recover` per endpoint per this many seconds (429 `rate_limited` otherwise; 0: no spacing). */
    WEBHOOK_RECOVER_MIN_INTERVAL_S: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0).max(86400).default(60),
    /** Development only (`pnpm start` sets both for local receivers): http:// and private/loopback webhook URLs. Refused in production. */
    WEBHOOK_ALLOW_HTTP: env.boolean(false),
    WEBHOOK_ALLOW_PRIVATE: env.boolean(false),
    /** Unset: the retry schedule's 13 attempts over about three days (webhook-dispatch/retry-schedule.ts). */
    WEBHOOK_MAX_ATTEMPTS: optionalPositiveInt(),
    /** Unset: the retry schedule; set: waits double from this many milliseconds instead. */
    WEBHOOK_BACKOFF_MS: optionalPositiveInt(),
    WEBHOOK_TIMEOUT_MS: env.positiveInt(10000),
    // Worker tuning, documented in services/mobility/README.md.
    WEBHOOK_CONCURRENCY: env.positiveInt(50),
    WEBHOOK_ENDPOINT_CONCURRENCY: env.positiveInt(10),
    WEBHOOK_RELAY_INTERVAL_MS: env.positiveInt(500),
    WEBHOOK_JOB_LOCK_MS: env.positiveInt(30000),
    /** Unset: WEBHOOK_TIMEOUT_MS + 5 s. How long a claim holds a delivery without a renewal from its holder. */
    WEBHOOK_CLAIM_LEASE_MS: optionalPositiveInt(),
    WORKER_METRICS_PORT: z.coerce.number({ message: 'must be a port number' }).int('must be a port number').min(0).max(65535).optional(),
    DISPATCH_RADIUS_M: env.positiveInt(5000),
    DISPATCH_OFFER_TTL_S: env.positiveInt(15),
    DISPATCH_TIMEOUT_S: env.positiveInt(120),
    /** Where the public reaches the gateway: delivery `tracking_url`s are `{PUBLIC_BASE_URL}/track/{token}`. */
    PUBLIC_BASE_URL: env.url('http://127.0.0.1:8080'),
    /** A loopback PUBLIC_BASE_URL is refused in production unless this says the platform is reached on this machine only. */
    ...publicAddressConfig,
    /**
     * Keys the HMAC that derives each delivery's tracking token from its id (so GET can show the link again while only
     * the token's SHA-256 is stored). Required in production; unset elsewhere: a public development value of its own
     * (job-secrets.ts), never JWT_SECRET. Changing it breaks the links of existing deliveries.
     */
    TRACKING_TOKEN_SECRET: z.string().min(1).optional(),
    /** Keys the HMAC of a security PIN stored with an Idempotency-Key's request. Required in production, like TRACKING_TOKEN_SECRET. */
    PIN_FINGERPRINT_SECRET: z.string().min(1).optional(),
    /** A delivery's public tracking page answers 410 ("this delivery has ended") this long after its final status. */
    TRACKING_LINK_TTL_S: env.positiveInt(24 * 60 * 60),
    /** Driver sign-in: access tokens live at most one hour; each refresh token 30 days from its issue. */
    DRIVER_ACCESS_TOKEN_TTL_S: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').positive('must be positive').max(3600, 'must be at most 3600 (one hour)').default(3600),
    DRIVER_REFRESH_TOKEN_TTL_S: env.positiveInt(30 * 24 * 60 * 60),
    /** Failed sign-ins (wrong, used or expired activation codes) one client address may make per window; then 429. */
    DRIVER_SIGNIN_MAX_FAILURES: env.positiveInt(10),
    DRIVER_SIGNIN_WINDOW_S: env.positiveInt(900),
    /** Proxies in front of the service whose `X-Forwarded-For` is trusted for the client address: the gateway (1). */
    DRIVER_SIGNIN_TRUST_PROXY_HOPS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0).max(10).default(1),
    /** Open job event streams (`GET …/{id}/stream`) one API process holds, and one API key may hold in one process; more are 429. */
    STREAM_MAX_PER_PROCESS: env.positiveInt(2000),
    STREAM_MAX_PER_KEY: env.positiveInt(50),
    /** Open job event streams all keys of one organization may hold together in one process. */
    STREAM_MAX_PER_ORGANIZATION: env.positiveInt(200),
    /**
     * Partner API requests all API keys of one organization may make per minute, live and test keys together (checked
     * once a key is resolved; counted in Redis, shared by every process): 429 `rate_limited` past it.
     */
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: env.positiveInt(3000),
    /** Live and test API keys one organization may hold (active, unexpired); creating one more is 409 `api_key_limit_reached`. */
    API_KEY_MAX_LIVE_PER_PARTNER: env.positiveInt(50),
    API_KEY_MAX_TEST_PER_PARTNER: env.positiveInt(50),
    /** A test-mode (sandbox) job nobody moved for this long is ended by the worker's sweep (cancelled, reason sandbox_expired). */
    SANDBOX_JOB_TTL_S: env.positiveInt(60 * 60),
    /** A job's location webhook goes out when this long has passed since its last one, or the driver moved LOCATION_EVENT_DISTANCE_M. */
    LOCATION_EVENT_INTERVAL_S: env.positiveInt(10),
    LOCATION_EVENT_DISTANCE_M: env.positiveInt(200),
  })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET', 'WEBHOOK_SECRET_KEY', 'TRACKING_TOKEN_SECRET', 'PIN_FINGERPRINT_SECRET']))
  .superRefine(requirePublicAddressesInProduction(['PUBLIC_BASE_URL'], ['PUBLIC_BASE_URL']))
  .superRefine((config, ctx) => {
    if (config.NODE_ENV !== 'production') return;
    for (const name of ['WEBHOOK_ALLOW_PRIVATE', 'WEBHOOK_ALLOW_HTTP'] as const) {
      // Private and loopback targets reach the cluster's own services and metadata; http:// sends events readable on the way.
      if (config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is for development only (local receivers), refused when NODE_ENV=production' });
    }
  })
  .transform((config) => ({ ...config, databaseUrl: config.MOBILITY_DATABASE_URL ?? config.DATABASE_URL }));

export type MobilityConfig = z.infer<typeof mobilityConfigSchema>;

export const MOBILITY_SCHEMA = 'mobility';

/** A whole positive number, or undefined when the variable is unset (the feature's own default then applies). */
function optionalPositiveInt() {
  return z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').positive('must be positive').optional();
}
