/** Short names for the generated admin API schemas (src/api/*.schema.ts, `pnpm --filter @platform/dashboard generate`). */
import type { components as CertificateComponents } from './certificate.schema';
import type { components as MobilityComponents } from './mobility.schema';

export type CertificateSchemas = CertificateComponents['schemas'];
export type MobilitySchemas = MobilityComponents['schemas'];

export type ApiKey = CertificateSchemas['ApiKey'] & { mode?: 'live' | 'test' };
export type ApiKeyWithToken = ApiKey & { token: string };
export type MobilityScope = MobilitySchemas['NewMobilityApiKey']['scopes'][number];
export type Certificate = CertificateSchemas['Certificate'];
export type NewCertificate = CertificateSchemas['NewCertificate'];
export type Template = CertificateSchemas['Template'];
export type Plan = CertificateSchemas['Plan'];
export type Payment = CertificateSchemas['Payment'];
export type Credits = CertificateSchemas['Credits'];
export type Ride = MobilitySchemas['Ride'];
export type Delivery = MobilitySchemas['Delivery'];
export type WebhookEndpoint = MobilitySchemas['WebhookEndpoint'];
export type CreatedWebhookEndpoint = MobilitySchemas['CreatedWebhookEndpoint'];
export type WebhookDelivery = MobilitySchemas['WebhookDelivery'];
export type WebhookEventType = MobilitySchemas['WebhookEventType'];
export type NewDriver = MobilitySchemas['NewDriver'];
export type DriverProfile = MobilitySchemas['DriverProfile'];
export type EventPassProgram = MobilitySchemas['EventPassProgram'];

/** A page in the services' list shape. */
export interface Page<T> {
  data: T[];
  has_more?: boolean;
  next_cursor?: string | null;
}

/**
 * Routes the dashboard needs that the admin descriptions do not have yet (the partner API has them under
 * /api/v1 with an API key; their admin twins reuse the same schemas). Pages using them say so when the service
 * answers 404 `route_not_found`.
 */
export interface LedgerEntry {
  id: string;
  amount: number;
  reason: string;
  balance_after?: number;
  created_at: string;
}

export interface StatusChange {
  status: string;
  at: string;
}

/** Certificate admin routes the dashboard calls that the description does not document yet. */
export type PlannedCertificateRoute = '/credits' | '/credits/ledger' | '/members' | `/members/${string}` | '/invitations' | `/invitations/${string}`;

/** Mobility admin routes the dashboard calls that the description does not document yet (the partner API's, under /admin/v1). */
export type PlannedMobilityRoute =
  | '/rides'
  | `/rides/${string}`
  | '/deliveries'
  | `/deliveries/${string}`
  | '/events'
  | '/webhooks'
  | `/webhooks/${string}`
  | '/event-pass-programs'
  | `/event-pass-programs/${string}`
  | `/drivers/${string}/sign-in-codes`;
