import { organizationBudget, type ApiKeyAuthCache } from '@platform/api-keys';
import type { Knex } from '@platform/service-kit/db';
import type { Logger } from '@platform/service-kit/logger';
import type { Metrics } from '@platform/service-kit/metrics';
import type { Redis } from '@platform/service-kit/redis';
import { invoiceSettingsOf, type CertificateConfig } from './config';
import type { SessionEvents } from './features/accounts/session-events';
import { createAccountsRepository } from './features/accounts/accounts.repository';
import { createAccountsService } from './features/accounts/accounts.service';
import { createEmailTokensRepository } from './features/accounts/email-tokens.repository';
import { createMembersService } from './features/accounts/members.service';
import { createSignInThrottle } from './features/accounts/sign-in-throttle';
import { createCertificateApiKeys } from './features/api-keys/api-keys';
import { createCertificatesRepository } from './features/certificates/certificates.repository';
import { createCertificatesService } from './features/certificates/certificates.service';
import { createRecipientDeliveries } from './features/recipients';
import { createTenantResolver } from './features/organizations/organization-tenants';
import { governorLimits } from './platform/governor-limits';
import { createGovernor, OverShareError, type GovernedResource, type Release, type Tenant } from '@platform/service-kit/governor';
import { createCreditsRepository } from './features/credits/credits.repository';
import { createCredentialBrandingRepository } from './features/credentials/credential-branding';
import { createCredentialsRepository } from './features/credentials/credentials.repository';
import { createCredentialsService } from './features/credentials/credentials.service';
import { signingKeyFrom } from './features/credentials/signing-key';
import { createVerifiableCredentialsService } from './features/credentials/verifiable-credentials.service';
import { createDocumentsRepository } from './features/documents/documents.repository';
import { createIssuerKeyCipher } from './features/credentials/issuer-key-cipher';
import { createIssuersRepository } from './features/credentials/issuers.repository';
import { createIssuersService } from './features/credentials/issuers.service';
import { createDocumentsService } from './features/documents/documents.service';
import { createRenderPool } from './features/documents/render-pool';
import { createMailer, type Mailer } from './features/mail/mailer';
import { createOrganizationsRepository } from './features/organizations/organizations.repository';
import { createGatewayA } from './features/payments/gateway-a';
import { createGatewayB } from './features/payments/gateway-b';
import type { PaymentGateway } from './features/payments/payment-gateway';
import { createInvoicesRepository } from './features/payments/invoices.repository';
import { createKnexPaymentActivationPorts } from './features/payments/payment-activation';
import { createPaymentsRepository } from './features/payments/payments.repository';
import { createPaymentsService } from './features/payments/payments.service';
import { deleteExpiredWebhookBodies } from './features/payments/webhook-body-retention';
import { createTemplatesRepository } from './features/templates/templates.repository';
import { createTemplatesService } from './features/templates/templates.service';
import { createPublicApiRepository } from './features/verification/public-api.repository';
import { createSummaryReader } from './features/summary/summary.reader';

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
  /** Shares the per-organization request count between processes (the server opens it when REDIS_URL is set). */
  redis?: Redis;
}

/** Wires the feature services once per process; the HTTP app and the operator CLI share this. */
export function buildServices(
  { db, config, apiKeyCache, sessionEvents, logger, redis }: Pick<CertificateDeps, 'db' | 'config' | 'apiKeyCache' | 'sessionEvents' | 'redis'> & Partial<Pick<CertificateDeps, 'logger'>>,
  mailer: Mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }),
) {
  const apiKeys = createCertificateApiKeys(db, apiKeyCache);
  // Live and test are counted together (certificate keys have no test mode).
  const organizationRequests = organizationBudget({ perMinute: config.RATE_LIMIT_PER_ORGANIZATION_PER_MINUTE, service: 'certificate', redis, prefix: config.REDIS_PREFIX, logger });
  const organizations = createOrganizationsRepository(db);
  // Workers start on the first render, so the CLI (which renders nothing) starts none.
  const renderPool = createRenderPool({ workers: config.DOCUMENT_RENDER_WORKERS, maxQueued: config.DOCUMENT_RENDER_QUEUE, timeoutMs: config.DOCUMENT_RENDER_TIMEOUT_MS });
  const documents = createDocumentsService(createDocumentsRepository(db), config.PUBLIC_BASE_URL, { pool: renderPool, perOrganization: config.DOCUMENT_RENDERS_PER_ORGANIZATION });
  const templates = createTemplatesService(createTemplatesRepository(db), { maxDecodedPixels: config.TEMPLATE_MAX_DECODED_PIXELS }, documents.decodeImages);
  // The fair-share governor of the route table's cost classes; its mail budget also paces the background recipient mails.
  const governor = createGovernor(governorLimits(config));
  const tenants = createTenantResolver(db, config.TRUST_PROXY_HOPS);
  const certificateRecords = createCertificatesRepository(db);
  const recipientDeliveries = createRecipientDeliveries({
    db,
    repository: certificateRecords,
    mailer,
    publicBaseUrl: config.PUBLIC_BASE_URL,
    mailBudget: async (organizationId) => mailUnit(governor.mail!, await tenants.ofOrganization(organizationId)),
    onError: (error, what) => logger?.error({ err: error }, what),
  });
  const certificates = createCertificatesService(db, certificateRecords, templates, undefined, recipientDeliveries);
  const credentialRecords = createCredentialsRepository(db);
  const credentials = createCredentialsService(credentialRecords, documents, { publicBaseUrl: config.PUBLIC_BASE_URL, documentWaitMs: config.DOCUMENT_RENDER_WAIT_MS }, createCredentialBrandingRepository(db));
  const issuers = createIssuersService(createIssuersRepository(db), {
    publicBaseUrl: config.PUBLIC_BASE_URL,
    cipher: createIssuerKeyCipher(config.ISSUER_KEY_ENCRYPTION_KEY),
    domainPolicy: { allowHttp: config.ISSUER_DOMAIN_ALLOW_HTTP, allowPrivate: config.ISSUER_DOMAIN_ALLOW_PRIVATE },
  });
  const verifiableCredentials = createVerifiableCredentialsService(credentialRecords, signingKeyFrom(config.CREDENTIAL_SIGNING_KEY), config.PUBLIC_BASE_URL, issuers);
  const paymentRecords = createPaymentsRepository(db);
  const invoices = createInvoicesRepository(db);
  // Every paid payment gets its invoice in the transaction that marks it paid.
  const payments = createPaymentsService(db, paymentRecords, createKnexPaymentActivationPorts(invoiceSettingsOf(config)));
  const paymentGateways = new Map<string, PaymentGateway>([
    ['gateway-a', createGatewayA(config)],
    ['gateway-b', createGatewayB(config)],
  ]);
  const publicApi = createPublicApiRepository(db);
  const credits = createCreditsRepository(db);
  /** Deletes stored payment-webhook bodies past their retention, once (the server also runs it hourly). */
  const runWebhookBodyRetention = () => deleteExpiredWebhookBodies(db, config.PAYMENT_WEBHOOK_RETENTION_DAYS);
  const accountRecords = createAccountsRepository(db);
  const throttle = createSignInThrottle(db, {
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
  const accounts = createAccountsService(
    {
      repo: accountRecords,
      tokens: createEmailTokensRepository(db),
      throttle,
      ensureOrganization: ensureAccountOrganization,
      mailer,
      onBackgroundError: (error, what) => logger?.error({ err: error }, what),
    },
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
  const members = createMembersService(accountRecords, mailer, { invitationTtlDays: config.INVITATION_TTL_DAYS, invitationsPerDay: config.INVITATIONS_PER_ORGANIZATION_PER_DAY, publicBaseUrl: config.PUBLIC_BASE_URL, sessionEvents });
  const summary = createSummaryReader(db);
  return { governor, tenants, recipientDeliveries, publicBaseUrl: config.PUBLIC_BASE_URL, dashboardOrigins: config.DASHBOARD_ORIGINS, accounts, members, apiKeys, organizationRequests, organizations, templates, certificates, documents, renderPool, credentials, verifiableCredentials, issuers, paymentRecords, payments, paymentGateways, invoices, publicApi, credits, summary, runWebhookBodyRetention };
}

export type CertificateServices = ReturnType<typeof buildServices>;

const MAIL_UNIT_WAIT_MS = 200;

/** A unit of the mail budget for work outside a request: while the tenant's share is taken, it waits (and asks again). */
async function mailUnit(mail: GovernedResource, tenant: Tenant): Promise<Release> {
  for (;;) {
    try {
      return mail.acquire(tenant);
    } catch (error) {
      if (!(error instanceof OverShareError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, MAIL_UNIT_WAIT_MS));
    }
  }
}
