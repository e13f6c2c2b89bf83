import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { apiKeyListResponse, apiKeyResponse, apiKeyWithTokenResponse, createKeySchema } from './api-keys.schema';
import { apiKeyListQuerySchema, rotateApiKeySchema } from '@platform/api-keys';
import { problemSchema } from '@platform/service-kit/problem-schema';

/** The api-keys operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const apiKeysContract = [
  route({
    operationId: 'createMobilityApiKey',
    method: 'post',
    path: '/admin/v1/api-keys',
    tags: ['Admin API keys'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    audit: 'api_key.created',
    body: createKeySchema,
    responses: {
      201: apiKeyWithTokenResponse,
      400: answers.InvalidJson,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      409: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'listMobilityApiKeys',
    method: 'get',
    path: '/admin/v1/api-keys',
    tags: ['Admin API keys'],
    security: [{ adminJwt: [] }],
    query: apiKeyListQuerySchema,
    responses: {
      200: apiKeyListResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'deleteMobilityApiKey',
    method: 'delete',
    path: '/admin/v1/api-keys/{id}',
    tags: ['Admin API keys'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    audit: 'api_key.deleted',
    params: z.object({ id: z.string() }),
    responses: {
      204: null,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      404: answers.NotFound,
      415: answers.UnsupportedMediaType,
    },
  }),
  route({
    operationId: 'rotateMobilityApiKey',
    method: 'post',
    path: '/admin/v1/api-keys/{id}/rotate',
    tags: ['Admin API keys'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    audit: 'api_key.rotated',
    params: z.object({ id: z.string() }),
    body: rotateApiKeySchema,
    bodyOptional: true,
    responses: {
      200: apiKeyWithTokenResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      404: answers.NotFound,
      409: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'revokeMobilityApiKey',
    method: 'post',
    path: '/admin/v1/api-keys/{id}/revoke',
    tags: ['Admin API keys'],
    security: [{ adminJwt: [] }],
    roles: ['owner'],
    audit: 'api_key.revoked',
    params: z.object({ id: z.string() }),
    responses: {
      200: apiKeyResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      404: answers.NotFound,
      415: answers.UnsupportedMediaType,
    },
  }),
] as const;
