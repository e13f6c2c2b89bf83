import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { activationCodeResponse, driverListQuerySchema, driverListResponse, driverProfileResponse, fleetDriverResponse, registerDriverSchema, registeredDriverResponse } from './fleet.schema';
import { problemSchema } from '@platform/service-kit/problem-schema';

/** Who manages the fleet: operators and owners of the organization, and platform operators (whose drivers serve every partner). */
const FLEET_MANAGERS = ['operator', 'owner', 'platform_operator'] as const;

/** Every fleet operation is the dashboard's: its tag, the admin JWT, and only fleet managers (members are refused). */
const adminApi = { tags: ['Admin drivers'], security: [{ adminJwt: [] }], roles: FLEET_MANAGERS };

/** How any fleet call is refused for its caller: no usable admin JWT, or a role that may not manage drivers. */
const adminRefused = { 401: answers.InvalidAdminToken, 403: answers.InsufficientRole };

/** How an action on one driver (issuing an activation code, disabling) is refused: bad JSON, no such driver, a body that is not JSON. */
const driverActionAnswers = {
  400: answers.InvalidJson,
  404: answers.NotFound,
  415: answers.UnsupportedMediaType,
};

/** The fleet operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const fleetContract = [
  route({
    operationId: 'registerDriver',
    method: 'post',
    path: '/admin/v1/drivers',
    ...adminApi,
    body: registerDriverSchema,
    audit: 'driver.registered',
    responses: {
      201: registeredDriverResponse,
      400: answers.InvalidJson,
      ...adminRefused,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'listDrivers',
    method: 'get',
    path: '/admin/v1/drivers',
    ...adminApi,
    query: driverListQuerySchema,
    responses: {
      200: driverListResponse,
      400: answers.MalformedRequest,
      ...adminRefused,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'getDriver',
    method: 'get',
    path: '/admin/v1/drivers/{id}',
    ...adminApi,
    params: z.object({ id: z.string() }),
    responses: {
      200: fleetDriverResponse,
      400: answers.MalformedRequest,
      ...adminRefused,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'issueDriverActivationCode',
    method: 'post',
    path: '/admin/v1/drivers/{id}/activation-codes',
    ...adminApi,
    params: z.object({ id: z.string() }),
    audit: 'driver.activation_code_issued',
    responses: {
      201: activationCodeResponse,
      ...adminRefused,
      ...driverActionAnswers,
      409: { content: { 'application/problem+json': problemSchema } },
    },
  }),
  route({
    operationId: 'disableDriver',
    method: 'post',
    path: '/admin/v1/drivers/{id}/disable',
    ...adminApi,
    params: z.object({ id: z.string() }),
    audit: 'driver.disabled',
    responses: {
      200: driverProfileResponse,
      ...adminRefused,
      ...driverActionAnswers,
    },
  }),
] as const;
