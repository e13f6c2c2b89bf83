/** Short names for the services' schemas in the API's generated types (`@platform/client/schema`, `pnpm --filter @platform/client generate`). */
import type { CertificateService, MobilityService } from '@platform/client/schema';

export type CertificateSchemas = CertificateService.components['schemas'];
export type MobilitySchemas = MobilityService.components['schemas'];

export type ApiKey = CertificateSchemas['ApiKey'] & { mode?: 'live' | 'test'; livemode?: boolean };
export type ApiKeyWithToken = ApiKey & { token: string };
export type MobilityScope = MobilitySchemas['NewMobilityApiKey']['scopes'][number];
export type Certificate = CertificateSchemas['Certificate'];
export type NewCertificate = CertificateSchemas['NewCertificate'];
export type Template = CertificateSchemas['Template'];
export type Plan = CertificateSchemas['Plan'];
export type CreditPack = CertificateSchemas['CreditPack'];
export type Payment = CertificateSchemas['Payment'];
export type CheckoutStarted = CertificateSchemas['CheckoutStarted'];
export type BillingPayment = CertificateSchemas['BillingPayment'];
export type Credits = CertificateSchemas['Credits'];
export type Ride = MobilitySchemas['Ride'];
export type Delivery = MobilitySchemas['Delivery'];
export type WebhookEndpoint = MobilitySchemas['WebhookEndpoint'];
export type CreatedWebhookEndpoint = MobilitySchemas['CreatedWebhookEndpoint'];
export type WebhookDelivery = MobilitySchemas['WebhookDelivery'];
export type WebhookEventType = MobilitySchemas['WebhookEventType'];
export type NewDriver = MobilitySchemas['NewDriver'];
export type DriverProfile = MobilitySchemas['DriverProfile'];
export type FleetDriver = MobilitySchemas['FleetDriver'];
export type RegisteredDriver = MobilitySchemas['RegisteredDriver'];
export type EventPassProgram = MobilitySchemas['EventPassProgram'];

/** A page in the services' list shape. */
export interface Page<T> {
  data: T[];
  has_more?: boolean;
  next_cursor?: string | null;
}

/** One change of the organization's credit balance (`GET /admin/v1/credits/ledger`). */
export type LedgerEntry = CertificateSchemas['CreditLedgerEntry'];
/** A fresh one-time code a driver signs in with (`POST /admin/v1/drivers/{id}/activation-codes`). */
export type ActivationCode = MobilitySchemas['ActivationCode'];

export interface StatusChange {
  status: string;
  at: string;
}
