import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { apiKeyIdParameter, insufficientRoleResponse, invalidAdminTokenResponse, notFoundResponse, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { newApiKeySchema } from './api-keys.schema';
import { apiKeyListQuerySchema, apiKeySchema, apiKeyWithTokenSchema as sharedApiKeyWithTokenSchema, rotateApiKeySchema } from '@platform/api-keys';
import { pageSchema } from '@platform/service-kit/pagination';

/** Certificate's create and rotate answer: a `ck_` token (live) or `ck_test_` token (test mode), and no scopes. */
const apiKeyWithTokenSchema = sharedApiKeyWithTokenSchema({ token: z.string().regex(/^ck_/) });

export const apiKeyListSchema = pageSchema(apiKeySchema, { cursorDescription: "Pass as `cursor` for the next page." }).meta({ id: "ApiKeyList" });

export const apiKeysRouteTable = [
  route({
    operationId: 'createApiKey',
    method: 'post',
    path: '/admin/v1/api-keys',
    tags: ["Admin API keys"],
    security: [{"adminJwt": []}],
    body: newApiKeySchema,
    roles: ['owner'],
    audit: 'api_key.created',
    responses: {
      201: apiKeyWithTokenSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'listApiKeys',
    method: 'get',
    path: '/admin/v1/api-keys',
    tags: ["Admin API keys"],
    security: [{"adminJwt": []}],
    query: apiKeyListQuerySchema,
    responses: {
      200: apiKeyListSchema,
      401: invalidAdminTokenResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'deleteApiKey',
    method: 'delete',
    path: '/admin/v1/api-keys/{id}',
    tags: ["Admin API keys"],
    security: [{"adminJwt": []}],
    params: z.object({ id: apiKeyIdParameter }),
    roles: ['owner'],
    audit: 'api_key.deleted',
    responses: {
      204: null,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
    },
  }),
  route({
    operationId: 'rotateApiKey',
    method: 'post',
    path: '/admin/v1/api-keys/{id}/rotate',
    tags: ["Admin API keys"],
    security: [{"adminJwt": []}],
    params: z.object({ id: apiKeyIdParameter }),
    body: rotateApiKeySchema,
    bodyOptional: true,
    roles: ['owner'],
    audit: 'api_key.rotated',
    responses: {
      200: apiKeyWithTokenSchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
      409: { content: { "application/problem+json": problemSchema } },
      415: unsupportedMediaTypeResponse,
      422: validationFailedResponse,
    },
  }),
  route({
    operationId: 'revokeApiKey',
    method: 'post',
    path: '/admin/v1/api-keys/{id}/revoke',
    tags: ["Admin API keys"],
    security: [{"adminJwt": []}],
    params: z.object({ id: apiKeyIdParameter }),
    roles: ['owner'],
    audit: 'api_key.revoked',
    responses: {
      200: apiKeySchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
    },
  }),
] as const;
