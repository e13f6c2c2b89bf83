import { z } from 'zod';
import type { InvoiceSettings } from './features/payments/invoices.repository';
import { isDevelopmentSigningKey, parseSigningKey } from './features/credentials/signing-key';
import { DEVELOPMENT_ISSUER_KEY_ENCRYPTION_KEY } from './features/credentials/issuer-key-cipher';
import { DEFAULT_DATABASE_URL, env, jwtSecretSchema } from '@platform/service-kit/config';
import { jwtSettingsConfig } from '@platform/service-kit/admin-auth';
import { publicAddressConfig, requirePublicAddressesInProduction } from '@platform/service-kit/public-address';
import { requireStrongSecretsInProduction } from '@platform/service-kit/secret-strength';

export const certificateConfigSchema = z
  .object({
    NODE_ENV: env.nodeEnv(),
    PORT: env.port(3001),
    /** The interface PORT (and any metrics port) listens on: 127.0.0.1 unless told otherwise; the image sets 0.0.0.0. */
    BIND_ADDRESS: env.bindAddress(),
    DATABASE_URL: env.url(DEFAULT_DATABASE_URL),
    CERTIFICATE_DATABASE_URL: env.optionalUrl(),
    JWT_SECRET: jwtSecretSchema(),
    // Every token's `iss`, and the longest lifetime of an admin token (12 h by default).
    ...jwtSettingsConfig,
    LOG_LEVEL: env.logLevel(),
    FAST_LANES: env.fastLanes(),
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
    /** The names people see for each gateway in the dashboard and in errors (the ids stay gateway-a / gateway-b). */
    GATEWAY_A_DISPLAY_NAME: z.string().trim().min(1).max(60).default('Gateway A'),
    GATEWAY_B_DISPLAY_NAME: z.string().trim().min(1).max(60).default('Gateway B'),
    PAYMENT_VERIFY_TIMEOUT_MS: env.positiveInt(10000),
    PAYMENT_WEBHOOK_RETENTION_DAYS: env.positiveInt(30),
    /** The seller on every invoice: legal name, postal address (lines separated by newlines or a literal `\n`) and tax id. */
    INVOICE_SELLER_NAME: z.string().trim().min(1).max(200).default('Partner Platform'),
    INVOICE_SELLER_ADDRESS: z.string().trim().min(1).max(500).optional(),
    INVOICE_SELLER_TAX_ID: z.string().trim().min(1).max(50).optional(),
    /** VAT in percent (7.5): prices include it and invoices split it out. Unset: invoices show no VAT. */
    INVOICE_VAT_RATE: z.coerce.number({ message: 'must be a number (percent, e.g. 7.5)' }).min(0, 'must be 0 or more').max(100, 'must be at most 100').optional(),
    /**
     * The Ed25519 private key that signs the verifiable credentials and status lists (PKCS#8 PEM or a private JWK).
     * Unset outside production: a fixed, published development key (see README; `pnpm start` generates one per checkout
     * instead). Required in production, and never the published one; never logged.
     */
    CREDENTIAL_SIGNING_KEY: z
      .string()
      .optional()
      .superRefine((value, ctx) => {
        const problem = value === undefined ? undefined : parseSigningKey(value);
        if (typeof problem === 'string') ctx.addIssue({ code: 'custom', message: problem });
      }),
    /**
     * The platform key that encrypts each organization's issuer private key at rest (AES-256-GCM, the key derived with
     * HKDF-SHA256). Required in production (at least 32 characters, not a weak value); unset elsewhere: a fixed,
     * published development key. Changing it makes the stored issuer keys unreadable.
     */
    ISSUER_KEY_ENCRYPTION_KEY: z.string().min(1).optional(),
    /** Development and tests only: the domain check may fetch over http:// (the proof URL is then http). */
    ISSUER_DOMAIN_ALLOW_HTTP: env.boolean(false),
    /** Development and tests only: the domain check may fetch from loopback and private addresses (a domain may name a port). */
    ISSUER_DOMAIN_ALLOW_PRIVATE: env.boolean(false),
    /** Worker threads that render documents (PDF, PNG) off the event loop; each holds one render's memory at a time. */
    DOCUMENT_RENDER_WORKERS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(16, 'must be at most 16').default(1),
    /** Renders waiting for a worker; more are refused (503 `too_many_in_flight`). */
    DOCUMENT_RENDER_QUEUE: env.positiveInt(32),
    /** Renders of one organization's documents in flight at once for the public document URLs; more are refused (503). */
    DOCUMENT_RENDERS_PER_ORGANIZATION: env.positiveInt(2),
    /** How long a public document request waits for a render before answering 202 with `Retry-After` (0: never waits). */
    DOCUMENT_RENDER_WAIT_MS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').max(30000, 'must be at most 30000').default(2000),
    /** A render still running after this long is abandoned (its worker is replaced). */
    DOCUMENT_RENDER_TIMEOUT_MS: env.positiveInt(60000),
    /** The pixels a template's images may decode to, all together (width × height of the background plus the logo). */
    TEMPLATE_MAX_DECODED_PIXELS: env.positiveInt(20_000_000),
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
    /** A dashboard sign-in ends this many seconds after it began, however often it was refreshed (default 30 days × 3 = 90 days). */
    SESSION_MAX_LIFETIME_S: env.positiveInt(90 * 86400),
    /**
     * Where the gateways listen for ended dashboard sessions (sign-out, member removal): with it they refuse a signed-out
     * access token at once; without it at their next session check (DASHBOARD_SESSION_CACHE_MS at the gateway).
     */
    REDIS_URL: env.optionalUrl(),
    /**
     * Public API requests all API keys of one organization may make per minute (checked once a key is resolved):
     * 429 `rate_limited` past it. Counted in Redis when REDIS_URL is set (shared by every process), else per process.
     */
    RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE: env.positiveInt(3000),
    REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, _ . or -').default('platform'),
    INVITATION_TTL_DAYS: env.positiveInt(7),
    /** Invitations one organization may make in 24 hours (its owners together); more are 429 `rate_limited` with Retry-After. */
    INVITATIONS_PER_ORGANIZATION_PER_DAY: env.positiveInt(50),
    /** Sign-in throttle: failures per account (email) and per client address within one window of this many seconds. */
    SIGN_IN_WINDOW_S: env.positiveInt(900),
    /** Wrong passwords one (email, address bucket) pair may try at once; after them each try waits SIGN_IN_BASE_DELAY_S · 1, 2, 4 … (up to SIGN_IN_MAX_DELAY_S). */
    SIGN_IN_FREE_FAILURES: env.positiveInt(5),
    SIGN_IN_BASE_DELAY_S: env.positiveInt(1),
    SIGN_IN_MAX_DELAY_S: env.positiveInt(900),
    SIGN_IN_MAX_FAILURES_PER_ADDRESS: env.positiveInt(50),
    /** Sign-ups and password-reset requests one address bucket (IPv6: its /64) may make per SIGN_UP_WINDOW_S: each hashes a password or sends a mail. */
    SIGN_UP_MAX_PER_ADDRESS: env.positiveInt(20),
    SIGN_UP_WINDOW_S: env.positiveInt(3600),
    /** Organizations one account may own. */
    MAX_ORGANIZATIONS_PER_ACCOUNT: env.positiveInt(3),
    /**
     * The fair-share governor (docs/configuration.md#fair-share): requests of each cost class the route table declares,
     * in flight at once per process (a soft total shared fairly among accounts) and per account on the free plan (a paying
     * account gets GOVERNOR_PAID_FACTOR times as many, and that weight in the shared total). Render: template uploads,
     * previews and dashboard documents; bulk: CSV/JSON batches; mail: sign-ups, reset requests, invitations and recipient mails. Render
     * and bulk also bound how many an account starts a minute (refilled evenly, a burst of a quarter of that).
     */
    GOVERNOR_RENDERS_PER_PROCESS: env.positiveInt(12),
    GOVERNOR_RENDERS_PER_ACCOUNT: env.positiveInt(2),
    GOVERNOR_RENDERS_PER_ACCOUNT_PER_MINUTE: env.positiveInt(30),
    GOVERNOR_BULK_PER_PROCESS: env.positiveInt(4),
    GOVERNOR_BULK_PER_ACCOUNT: env.positiveInt(1),
    GOVERNOR_BULK_PER_ACCOUNT_PER_MINUTE: env.positiveInt(10),
    GOVERNOR_MAIL_PER_PROCESS: env.positiveInt(16),
    GOVERNOR_MAIL_PER_ACCOUNT: env.positiveInt(4),
    GOVERNOR_PAID_FACTOR: env.positiveInt(3),
    /** Outgoing mail (sign-up verification, password reset, invitations): smtp://user:pass@host:port or smtps://…; unset, mail cannot be sent (503). */
    SMTP_URL: env.optionalUrl(),
    MAIL_FROM: z.string().min(3).default('Partner Platform <no-reply@localhost>'),
    /** Development only: the local mail catcher's inbox (set by `pnpm start`); sign-up answers name it so the dashboard can link to it. */
    MAIL_INBOX_URL: env.optionalUrl(),
    EMAIL_TOKEN_TTL_HOURS: env.positiveInt(24),
    PASSWORD_RESET_TTL_MINUTES: env.positiveInt(60),
    /** Proxies in front of the service (the gateway: 1): the throttle reads the client address from `X-Forwarded-For` that many hops back. */
    TRUST_PROXY_HOPS: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(0),
  })
  .superRefine(requireStrongSecretsInProduction(['JWT_SECRET', 'GATEWAY_A_SECRET_KEY', 'GATEWAY_B_SECRET_KEY', 'GATEWAY_B_SECRET_HASH', 'ISSUER_KEY_ENCRYPTION_KEY']))
  .superRefine(requirePublicAddressesInProduction(['PUBLIC_BASE_URL', 'DASHBOARD_ORIGINS'], ['PUBLIC_BASE_URL']))
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && !config.CREDENTIAL_SIGNING_KEY) {
      ctx.addIssue({ code: 'custom', path: ['CREDENTIAL_SIGNING_KEY'], message: 'is required when NODE_ENV=production (an Ed25519 private key, PKCS#8 PEM or JWK)' });
    } else if (config.NODE_ENV === 'production' && config.CREDENTIAL_SIGNING_KEY && isDevelopmentSigningKey(config.CREDENTIAL_SIGNING_KEY)) {
      ctx.addIssue({ code: 'custom', path: ['CREDENTIAL_SIGNING_KEY'], message: 'is the development key published in the source: anyone can sign credentials with it, refused when NODE_ENV=production' });
    }
  })
  .superRefine((config, ctx) => {
    if (config.NODE_ENV !== 'production') return;
    if (!config.ISSUER_KEY_ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['ISSUER_KEY_ENCRYPTION_KEY'], message: 'is required when NODE_ENV=production (it encrypts the organizations\' issuer keys)' });
    } else if (config.ISSUER_KEY_ENCRYPTION_KEY === DEVELOPMENT_ISSUER_KEY_ENCRYPTION_KEY) {
      ctx.addIssue({ code: 'custom', path: ['ISSUER_KEY_ENCRYPTION_KEY'], message: 'is the development key published in the source, refused when NODE_ENV=production' });
    }
    for (const name of ['ISSUER_DOMAIN_ALLOW_HTTP', 'ISSUER_DOMAIN_ALLOW_PRIVATE'] as const) {
      // Private and loopback addresses reach the cluster's own services and metadata.
      if (config[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is for development only (local servers), refused when NODE_ENV=production' });
    }
  })
  .transform((config) => ({ ...config, databaseUrl: config.CERTIFICATE_DATABASE_URL ?? config.DATABASE_URL }));

export type CertificateConfig = z.infer<typeof certificateConfigSchema>;

/** The invoice settings (seller and VAT) out of the configuration. */
export function invoiceSettingsOf(config: CertificateConfig): InvoiceSettings {
  return { sellerName: config.INVOICE_SELLER_NAME, sellerAddress: config.INVOICE_SELLER_ADDRESS, sellerTaxId: config.INVOICE_SELLER_TAX_ID, vatRate: config.INVOICE_VAT_RATE || undefined };
}

export const CERTIFICATE_SCHEMA = 'certificate';
