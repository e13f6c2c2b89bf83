import path from 'node:path';
import { auditLogQuerySchema, buildOpenApiDocument, type OpenApiDocument } from '@platform/service-kit';
import { apiKeyListQuerySchema, rotateApiKeySchema } from '@platform/api-keys';
import { createKeySchema } from './features/api-keys/api-keys.routes';
import { createDeliverySchema, deliverSchema, deliveryListQuerySchema, deliveryQuoteSchema, failSchema } from './features/deliveries/deliveries.routes';
import { availabilitySchema, locationSchema } from './features/driver-app/driver-app.routes';
import { refreshSchema, signInSchema } from './features/driver-sessions/driver-sessions.routes';
import { estimateSchema } from './features/estimates/estimates.routes';
import { createProgramSchema, eventPassPageSchema, issuePassesSchema } from './features/event-passes/event-passes.routes';
import { driverListQuerySchema, registerDriverSchema } from './features/fleet/fleet.routes';
import { createRideSchema, rideListQuerySchema } from './features/rides/rides.routes';
import { messageListQuerySchema, pageSchema, recoverSchema, registerSchema, rotateSecretSchema, updateEndpointSchema } from './features/webhook-endpoints/webhook-endpoints.routes';
import { eventListQuerySchema } from './features/outbox/events.routes';
import { advanceDeliverySchema, advanceRideSchema } from './features/sandbox/sandbox.routes';
import { brandingSchema } from './features/branding/branding.routes';
import { mobilitySummaryQuery } from './features/summary/summary.routes';

/** The hand-written part of the description (operations, responses, prose), kept as source beside `src/`. */
export const OPENAPI_FILE = path.join(__dirname, '..', 'openapi.yaml');

/** Request bodies and queries: the zod schemas the routes validate with are their only description. */
export const REQUEST_SCHEMAS = {
  bodies: [estimateSchema, createRideSchema, createDeliverySchema, deliveryQuoteSchema, deliverSchema, failSchema, availabilitySchema, locationSchema, registerSchema, updateEndpointSchema, recoverSchema, rotateSecretSchema, createKeySchema, rotateApiKeySchema, registerDriverSchema, createProgramSchema, issuePassesSchema, signInSchema, refreshSchema, advanceRideSchema, advanceDeliverySchema, brandingSchema],
  queries: [auditLogQuerySchema, pageSchema, eventListQuerySchema, apiKeyListQuerySchema, driverListQuerySchema, eventPassPageSchema, rideListQuerySchema, deliveryListQuerySchema, messageListQuerySchema, mobilitySummaryQuery],
};

let cached: OpenApiDocument | undefined;

/** The complete description served at `GET /openapi.json`, built once per process. */
export function mobilityOpenApi(): OpenApiDocument {
  cached ??= buildOpenApiDocument(OPENAPI_FILE, REQUEST_SCHEMAS);
  return structuredClone(cached);
}
