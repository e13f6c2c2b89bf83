import { z } from 'zod';
import { route, type RouteSpec } from '@platform/service-kit/route-table';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { apiKeyIdParameter, insufficientRoleResponse, invalidAdminTokenResponse, notFoundResponse, unsupportedMediaTypeResponse, validationFailedResponse } from '../../http-contract';
import { newApiKeySchema } from './api-keys.schema';
import { apiKeyListQuerySchema, rotateApiKeySchema } from '@platform/api-keys';

export const apiKeySchema = z.object({
  id: z.string().regex(/^key_/),
  name: z.string().min(1).max(100),
  status: z.enum(["active", "expired", "revoked"]).meta({ description: "`expired` once `expires_at` has passed; an expired or revoked key is refused with 401 `Invalid or revoked API key`." }),
  scopes: z.array(z.string()).meta({ description: "What the key may do (mobility keys only; certificate keys carry no scopes)." }).optional(),
  livemode: z.boolean().meta({ description: "Mobility keys only: false for a test-mode key (`mk_test_…`, created with `mode: test`), whose rides, deliveries and webhooks are test data. Certificate keys have no test mode." }).optional(),
  token_hint: z.string().meta({ description: "The token's first 7 characters and last 4, to recognise it (`ck_AbCd…wxyz`, `mk_AbCd…wxyz`, `mk_test…wxyz`)." }),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "The last authenticated request, recorded at most once a minute." }),
  expires_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "Set at creation; null for a key that does not expire." }),
  rotated_at: z.iso.datetime({ offset: true }).nullable(),
  revoked_at: z.iso.datetime({ offset: true }).nullable(),
  previous_token_expires_at: z.iso.datetime({ offset: true }).nullable().meta({ description: "Until when the token replaced by the last rotation still works (rotation with `grace_seconds`); null when it stopped at once." }),
  token: z.string().regex(/^(ck_|mk_|mk_test_)[0-9A-Za-z]{36}$/).meta({ description: "The secret token, shown on create and rotate only." }).optional(),
}).meta({ id: "ApiKey", description: "An organization API key as both services' admin APIs answer it (the certificate and mobility descriptions hold this same schema). Never the token's hash; the token itself only in the answers of create and rotate." });

export const apiKeyWithTokenSchema = apiKeySchema.extend({
  token: z.string().regex(/^ck_/),
}).meta({ id: "ApiKeyWithToken", description: "A key with its new token (create and rotate)." });

export const apiKeyListSchema = z.object({
  data: z.array(apiKeySchema),
  has_more: z.boolean(),
  next_cursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page." }),
}).meta({ id: "ApiKeyList" });

export const apiKeysRouteTable: RouteSpec[] = [
  route({
    operationId: 'createApiKey',
    method: 'post',
    path: '/admin/v1/api-keys',
    tags: ["Admin API keys"],
    security: [{"adminJwt": []}],
    body: newApiKeySchema,
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
    responses: {
      200: apiKeySchema,
      401: invalidAdminTokenResponse,
      403: insufficientRoleResponse,
      404: notFoundResponse,
    },
  }),
];
