import type { CertificateDeps } from './app';
import { accountsRepository } from './features/accounts/accounts.repository';
import { accountsService } from './features/accounts/accounts.service';
import { membersService } from './features/accounts/members.service';
import { signInThrottle } from './features/accounts/sign-in-throttle';
import { createCertificateApiKeys } from './features/api-keys/api-keys';
import { certificatesRepository } from './features/certificates/certificates.repository';
import { certificatesService } from './features/certificates/certificates.service';
import { creditsRepository } from './features/credits/credits.repository';
import { credentialsRepository } from './features/credentials/credentials.repository';
import { credentialsService } from './features/credentials/credentials.service';
import { signingKeyFrom } from './features/credentials/signing-key';
import { verifiableCredentialsService } from './features/credentials/verifiable-credentials.service';
import { documentsRepository } from './features/documents/documents.repository';
import { documentsService } from './features/documents/documents.service';
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

/** Wires the feature services once per process; the HTTP app and the operator CLI share this. */
export function buildServices({ db, config, apiKeyCache }: Pick<CertificateDeps, 'db' | 'config' | 'apiKeyCache'>) {
  const apiKeys = createCertificateApiKeys(db, apiKeyCache);
  const organizations = organizationsRepository(db);
  const templates = templatesService(templatesRepository(db));
  const certificates = certificatesService(db, certificatesRepository(db), templates);
  const documents = documentsService(documentsRepository(db), config.PUBLIC_BASE_URL);
  const credentialRecords = credentialsRepository(db);
  const credentials = credentialsService(credentialRecords, documents, config.PUBLIC_BASE_URL);
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
    maxFailuresPerAccount: config.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
    maxFailuresPerAddress: config.SIGN_IN_MAX_FAILURES_PER_ADDRESS,
  });
  const accounts = accountsService(accountRecords, throttle, (claims, trx) => organizations.ensureWithUser(claims, trx), {
    jwtSecret: config.JWT_SECRET,
    jwtIssuer: config.JWT_ISSUER,
    refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
    invitationTtlDays: config.INVITATION_TTL_DAYS,
    publicBaseUrl: config.PUBLIC_BASE_URL,
  });
  const members = membersService(accountRecords, { invitationTtlDays: config.INVITATION_TTL_DAYS, publicBaseUrl: config.PUBLIC_BASE_URL });
  return { accounts, members, apiKeys, organizations, templates, certificates, documents, credentials, verifiableCredentials, paymentRecords, payments, paymentGateways, publicApi, credits, runWebhookBodyRetention };
}

export type CertificateServices = ReturnType<typeof buildServices>;
