import { z } from 'zod';
import { DEFAULT_REDIS_URL, env, jwtSecretSchema } from '@platform/service-kit/config';
import { jwtSettingsConfig } from '@platform/service-kit/admin-auth';
import { requireStrongSecretsInProduction } from '@platform/service-kit/secret-strength';
import { DEFAULT_DASHBOARD_DIR } from './dashboard-static';
import { DEFAULT_CERTIFICATE_OPENAPI_FILE, DEFAULT_MOBILITY_OPENAPI_FILE } from './openapi';
import { upstreamListSchema } from './upstream-list';

export const gatewayConfigSchema = z
  .object({
    NODE_ENV: env.nodeEnv(),
    PORT: env.port(8080),
    /** The interface PORT (and any metrics port) listens on: 127.0.0.1 unless told otherwise; the image sets 0.0.0.0. */
    BIND_ADDRESS: env.bindAddress(),
    /** Verifies the dashboard's admin tokens before `/dashboard/api/certificate|mobility/…` is proxied (the services' own secret). */
    JWT_SECRET: jwtSecretSchema(),
    ...jwtSettingsConfig,
    /** The built dashboard (`packages/dashboard/dist`) served at `/dashboard`. */
    DASHBOARD_DIR: z.string().min(1).default(DEFAULT_DASHBOARD_DIR),
    /** One URL, or several separated by commas: replicas of the service, taken in turn (round robin). */
    CERTIFICATE_URL: upstreamListSchema('http://127.0.0.1:3001'),
    MOBILITY_URL: upstreamListSchema('http://127.0.0.1:3002'),
    /** From a request's arrival to the upstream's answer headers, waiting for a pooled upstream socket included (504 after). */
    UPSTREAM_TIMEOUT_MS: env.positiveInt(30000),
    /** Keep-alive sockets per upstream. */
    UPSTREAM_MAX_SOCKETS: env.positiveInt(256),
    /** Event streams (`…/stream`) hold their upstream socket for as long as the job lasts: their own pool, so they never starve the rest. */
    UPSTREAM_MAX_STREAM_SOCKETS: env.positiveInt(2048),
    /** `/metrics` and `/readyz` are served here only (an internal port, never exposed publicly); `/healthz` on both. */
    METRICS_PORT: env.port(9464),
    /** Largest request body accepted (413 above it); bodies are read in full at the gateway before an upstream socket is taken. */
    MAX_BODY_BYTES: env.positiveInt(100 * 1024),
    /**
     * Largest body of the dashboard's CSV/JSON batch upload (`POST /dashboard/api/certificate/certificates/batch`), streamed
     * to the service once the dashboard token was accepted. Every other admin route keeps MAX_BODY_BYTES (the services' own
     * JSON limit) but templates: DASHBOARD_TEMPLATE_MAX_BODY_BYTES.
     */
    DASHBOARD_MAX_BODY_BYTES: env.positiveInt(5 * 1024 * 1024),
    /** Largest template body (with images): `POST /dashboard/api/certificate/templates`, `PATCH …/templates/{id}`, their previews. */
    DASHBOARD_TEMPLATE_MAX_BODY_BYTES: env.positiveInt(3 * 1024 * 1024),
    /** Dashboard upload bytes one account may have in flight (bytes received, until their answer is done): 429 past it. */
    DASHBOARD_UPLOAD_BYTES_PER_ACCOUNT: env.positiveInt(16 * 1024 * 1024),
    /**
     * Dashboard upload bytes one gateway process holds in flight, all accounts together, shared fairly: while it is
     * reached, an account under its fair share (this total divided by the accounts uploading) is still admitted; one at
     * or over its share gets 503.
     */
    DASHBOARD_UPLOAD_BYTES_PER_PROCESS: env.positiveInt(64 * 1024 * 1024),
    /** A dashboard upload that sends no byte for this many ms is cut off with 408 and gives its share back. */
    DASHBOARD_BODY_IDLE_MS: env.positiveInt(5000),
    /**
     * How long the answer to a dashboard token's session check (is its sign-in live, its membership unchanged?) is
     * trusted, while the gateway's Redis subscription to ended sessions is up (0: every admin request asks).
     */
    DASHBOARD_SESSION_CACHE_MS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(10000),
    /** A request's headers and body must have fully arrived within this many ms of its first byte (408 JSON after). */
    BODY_TIMEOUT_MS: env.positiveInt(10000),
    /** Requests one client address (IPv6: its /64) may have in flight at once; more are answered 429 at once. */
    MAX_IN_FLIGHT_PER_CLIENT: env.positiveInt(256),
    LOG_LEVEL: env.logLevel(),
    REDIS_URL: env.url(DEFAULT_REDIS_URL),
    REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, _ . or -').default('platform'),
    /** Requests per minute of one API key (of one client address for requests without a well-formed key): 429 `rate_limited` past it. */
    RATE_LIMIT_PER_MINUTE: env.positiveInt(600),
    /** Requests per minute of one client address (IPv6: its /64), whatever key each carries (ten keys' worth): 429 past it. */
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: env.positiveInt(6000),
    /**
     * Dashboard requests per minute of one account (a token's `sub`), whatever organization or sign-in each names: a
     * person at the dashboard makes a few a second at most; 429 `rate_limited` past it.
     */
    DASHBOARD_RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: env.positiveInt(600),
    /** Hops of trusted reverse proxies in front of the gateway (0: the socket's address is the client's IP). */
    TRUST_PROXY_HOPS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(0),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),
    /**
     * Each service's description as its build wrote it (`dist/openapi.json`), merged into the one served at `/openapi.json`
     * and `/docs` (read at start-up, so the docs work while a service is down; 503 `description_not_built` while one is missing).
     */
    CERTIFICATE_OPENAPI_FILE: z.string().min(1).default(DEFAULT_CERTIFICATE_OPENAPI_FILE),
    MOBILITY_OPENAPI_FILE: z.string().min(1).default(DEFAULT_MOBILITY_OPENAPI_FILE),
  })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET']))
  .superRefine((config, ctx) => {
    if ((config.TLS_CERT_FILE === undefined) !== (config.TLS_KEY_FILE === undefined)) {
      const [missing, other] = config.TLS_CERT_FILE === undefined ? ['TLS_CERT_FILE', 'TLS_KEY_FILE'] : ['TLS_KEY_FILE', 'TLS_CERT_FILE'];
      ctx.addIssue({ code: 'custom', path: [missing], message: `must be set when ${other} is` });
    }
  });

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

/**
 * The settings a gateway runs with: the ones it was given, every other one at its default here (defaults are written
 * in the schema only). A process passes what loadConfigOrExit parsed; tests and benches pass the few they choose.
 */
export function gatewaySettings(given: z.input<typeof gatewayConfigSchema>): GatewayConfig {
  return gatewayConfigSchema.parse(given);
}
