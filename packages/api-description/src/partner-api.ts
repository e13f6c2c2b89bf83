import { addGatewayResponses, mergeDescriptions, type OpenApiDocument } from './merge';

/**
 * Where partners, payment gateways and driver apps reach the services through the gateway.
 * The gateway's route table sends exactly these to the service that describes them; its tests check that the two agree.
 */
export const PARTNER_PATH_PREFIXES = ['/api/v1/', '/webhooks/payments/', '/driver/v1/'];

export function isPartnerPath(pathTemplate: string): boolean {
  return PARTNER_PATH_PREFIXES.some((prefix) => pathTemplate.startsWith(prefix));
}

export const PARTNER_API_INFO = {
  title: 'Partner API',
  version: '1.0.0',
  description:
    'Everything partners, payment gateways and driver apps reach through the gateway: certificate verification and credits, ' +
    'payment webhooks, fare estimates, rides, deliveries, outgoing webhooks and the driver app. ' +
    'Errors are Problem Details (`application/problem+json`: `type`, `title`, `status`, `detail`, with `error` and `code`; 422 adds `details`); lists are `{"data", "has_more", "next_cursor"}`.',
  license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
};

/** The description the gateway serves and the client is generated from: both services' built documents, merged. */
export function partnerApiDescription(services: { certificate: OpenApiDocument; mobility: OpenApiDocument }): OpenApiDocument {
  const merged = mergeDescriptions(
    [
      { document: services.certificate, exposes: isPartnerPath },
      { document: services.mobility, exposes: isPartnerPath },
    ],
    PARTNER_API_INFO,
  );
  return addGatewayResponses(merged);
}
