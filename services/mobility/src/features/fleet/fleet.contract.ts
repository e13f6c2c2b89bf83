import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { driverListQuerySchema, registerDriverSchema } from './fleet.routes';
import { activationCodeResponse, driverListResponse, driverProfileResponse, fleetDriverResponse, registeredDriverResponse } from './fleet.schema';
import { problemSchema } from '@platform/service-kit';

/** The fleet operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const fleetContract = [
  route({
    operationId: 'registerDriver',
    method: 'post',
    path: '/admin/v1/drivers',
    tags: ['Admin drivers'],
    security: [{ adminJwt: [] }],
    body: registerDriverSchema,
    responses: {
      201: registeredDriverResponse,
      400: answers.InvalidJson,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'listDrivers',
    method: 'get',
    path: '/admin/v1/drivers',
    tags: ['Admin drivers'],
    security: [{ adminJwt: [] }],
    query: driverListQuerySchema,
    responses: {
      200: driverListResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'getDriver',
    method: 'get',
    path: '/admin/v1/drivers/{id}',
    tags: ['Admin drivers'],
    security: [{ adminJwt: [] }],
    params: z.object({ id: z.string() }),
    responses: {
      200: fleetDriverResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'issueDriverActivationCode',
    method: 'post',
    path: '/admin/v1/drivers/{id}/activation-codes',
    tags: ['Admin drivers'],
    security: [{ adminJwt: [] }],
    params: z.object({ id: z.string() }),
    responses: {
      201: activationCodeResponse,
      400: answers.InvalidJson,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      404: answers.NotFound,
      409: { content: { 'application/problem+json': problemSchema } },
      415: answers.UnsupportedMediaType,
    },
  }),
  route({
    operationId: 'disableDriver',
    method: 'post',
    path: '/admin/v1/drivers/{id}/disable',
    tags: ['Admin drivers'],
    security: [{ adminJwt: [] }],
    params: z.object({ id: z.string() }),
    responses: {
      200: driverProfileResponse,
      400: answers.InvalidJson,
      401: answers.InvalidAdminToken,
      403: answers.InsufficientRole,
      404: answers.NotFound,
      415: answers.UnsupportedMediaType,
    },
  }),
] as const;
