import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { brandingSchema, partnerBrandingResponse } from './branding.schema';
import { problemSchema } from '@platform/service-kit/problem-schema';

/** The branding operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const brandingContract = [
  route({
    operationId: 'getPartnerBranding',
    method: 'get',
    path: '/admin/v1/partner/branding',
    tags: ['Admin partner branding'],
    security: [{ adminJwt: [] }],
    responses: {
      200: partnerBrandingResponse,
      401: answers.InvalidAdminToken,
    },
  }),
  route({
    operationId: 'updatePartnerBranding',
    method: 'patch',
    path: '/admin/v1/partner/branding',
    tags: ['Admin partner branding'],
    security: [{ adminJwt: [] }],
    roles: ['owner', 'operator'],
    audit: 'branding.updated',
    body: brandingSchema,
    responses: {
      200: partnerBrandingResponse,
      400: answers.InvalidJson,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      413: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
] as const;
