import type { ApiKeyAuthCache } from '@platform/api-keys';
import type { Knex, Logger, Metrics } from '@platform/service-kit';
import type { CertificateConfig } from './config';
import type { SessionEvents } from './features/accounts/session-events';
import { accountsRepository } from './features/accounts/accounts.repository';
import { accountsService } from './features/accounts/accounts.service';
import { emailTokensRepository } from './features/accounts/email-tokens.repository';
import { membersService } from './features/accounts/members.service';
import { signInThrottle } from './features/accounts/sign-in-throttle';
import { createCertificateApiKeys } from './features/api-keys/api-keys';
import { certificatesRepository } from './features/certificates/certificates.repository';
import { certificatesService } from './features/certificates/certificates.service';
import { creditsRepository } from './features/credits/credits.repository';
import { credentialBrandingRepository } from './features/credentials/credential-branding';
import { credentialsRepository } from './features/credentials/credentials.repository';
import { credentialsService } from './features/credentials/credentials.service';
import { signingKeyFrom } from './features/credentials/signing-key';
import { verifiableCredentialsService } from './features/credentials/verifiable-credentials.service';
import { documentsRepository } from './features/documents/documents.repository';
import { documentsService } from './features/documents/documents.service';
import { createRenderPool } from './features/documents/render-pool';
import { createMailer, type Mailer } from './features/mail/mailer';
import { organizationsRepository } from './features/organizations/organizations.repository';
import { gatewayA } from './features/payments/gateway-a';
import { gatewayB } from './features/payments/gateway-b';
import type { PaymentGateway } from './features/payments/payment-gateway';
import { paymentsRepository } from './features/payments/payments.repository';
import { paymentsService } from './features/payments/payments.service';
import { deleteExpiredWebhookBodies } from './features/payments/webhook-body-retention';
import { templatesRepository } from './features/templates/templates.repository';
import { templatesService } from './features/templates/templates.service';
import { publicApiRepository } from './features/verification/public-api.repository';
import { summaryReader } from './features/summary/summary.routes';

/** What the composition root is built from: the process's connections, its configuration and its shared helpers. */
export interface CertificateDeps {
  db: Knex;
  config: CertificateConfig;
  logger: Logger;
  /** The per-process key cache (the server starts one; apps built without it read every key from Postgres). */
  apiKeyCache?: ApiKeyAuthCache;
  /** The request metrics to record into (the server shares one with the public API's fast lane); a new set otherwise. */
  metrics?: Metrics;
  /** Tells the gateways when a dashboard session ends (the server starts it when REDIS_URL is set). */
  sessionEvents?: SessionEvents;
}

/** Wires the feature services once per process; the HTTP app and the operator CLI share this. */
export function buildServices(
  { db, config, apiKeyCache, sessionEvents }: Pick<CertificateDeps, 'db' | 'config' | 'apiKeyCache' | 'sessionEvents'>,
  mailer: Mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }),
) {
  const apiKeys = createCertificateApiKeys(db, apiKeyCache);
  const organizations = organizationsRepository(db);
  const templates = templatesService(templatesRepository(db), { maxDecodedPixels: config.TEMPLATE_MAX_DECODED_PIXELS });
  const certificates = certificatesService(db, certificatesRepository(db), templates);
  // Workers start on the first render, so the CLI (which renders nothing) starts none.
  const renderPool = createRenderPool({ workers: config.DOCUMENT_RENDER_WORKERS, maxQueued: config.DOCUMENT_RENDER_QUEUE, timeoutMs: config.DOCUMENT_RENDER_TIMEOUT_MS });
  const documents = documentsService(documentsRepository(db), config.PUBLIC_BASE_URL, { pool: renderPool, perOrganization: config.DOCUMENT_RENDERS_PER_ORGANIZATION });
  const credentialRecords = credentialsRepository(db);
  const credentials = credentialsService(credentialRecords, documents, { publicBaseUrl: config.PUBLIC_BASE_URL, documentWaitMs: config.DOCUMENT_RENDER_WAIT_MS }, credentialBrandingRepository(db));
  const verifiableCredentials = verifiableCredentialsService(credentialRecords, signingKeyFrom(config.CREDENTIAL_SIGNING_KEY), config.PUBLIC_BASE_URL);
  const paymentRecords = paymentsRepository(db);
  const payments = paymentsService(db, paymentRecords);
  const paymentGateways = new Map<string, PaymentGateway>([
    ['gateway-a', gatewayA(config)],
    ['gateway-b', gatewayB(config)],
  ]);
  const publicApi = publicApiRepository(db);
  const credits = creditsRepository(db);
  /** Deletes stored payment-webhook bodies past their retention, once (the server also runs it hourly). */
  const runWebhookBodyRetention = () => deleteExpiredWebhookBodies(db, config.PAYMENT_WEBHOOK_RETENTION_DAYS);
  const accountRecords = accountsRepository(db);
  const throttle = signInThrottle(db, {
    windowSeconds: config.SIGN_IN_WINDOW_S,
    freeFailures: config.SIGN_IN_FREE_FAILURES,
    baseDelaySeconds: config.SIGN_IN_BASE_DELAY_S,
    maxDelaySeconds: config.SIGN_IN_MAX_DELAY_S,
    maxFailuresPerAddress: config.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
    maxSignUpsPerAddress: config.SIGN_UP_MAX_PER_ADDRESS,
    signUpWindowSeconds: config.SIGN_UP_WINDOW_S,
  });
  // Organizations made by accounts get no free credits of their own: a verified account's one grant goes to its first.
  const ensureAccountOrganization = (claims: { org: string; org_name?: string; sub: string }, trx: typeof db) => organizations.ensureWithUser(claims, trx, { freeCredits: false });
  const accounts = accountsService(
    { repo: accountRecords, tokens: emailTokensRepository(db), throttle, ensureOrganization: ensureAccountOrganization, mailer },
    {
      jwtSecret: config.JWT_SECRET,
      jwtIssuer: config.JWT_ISSUER,
      refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
      sessionMaxLifetimeSeconds: config.SESSION_MAX_LIFETIME_S,
      sessionEvents,
      invitationTtlDays: config.INVITATION_TTL_DAYS,
      publicBaseUrl: config.PUBLIC_BASE_URL,
      maxOrganizationsPerAccount: config.MAX_ORGANIZATIONS_PER_ACCOUNT,
      emailTokenTtlHours: config.EMAIL_TOKEN_TTL_HOURS,
      passwordResetTtlMinutes: config.PASSWORD_RESET_TTL_MINUTES,
      mailInboxUrl: config.NODE_ENV === 'production' ? undefined : config.MAIL_INBOX_URL,
    },
  );
  const members = membersService(accountRecords, mailer, { invitationTtlDays: config.INVITATION_TTL_DAYS, publicBaseUrl: config.PUBLIC_BASE_URL, sessionEvents });
  const summary = summaryReader(db);
  return { publicBaseUrl: config.PUBLIC_BASE_URL, dashboardOrigins: config.DASHBOARD_ORIGINS, accounts, members, apiKeys, organizations, templates, certificates, documents, renderPool, credentials, verifiableCredentials, paymentRecords, payments, paymentGateways, publicApi, credits, summary, runWebhookBodyRetention };
}

export type CertificateServices = ReturnType<typeof buildServices>;
