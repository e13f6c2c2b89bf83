import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import {
  createdWebhookEndpointResponse,
  endpointListQuerySchema,
  exampleEventSchema,
  listWebhookDeliveriesResponse,
  listWebhookEndpointsResponse,
  messageListQuerySchema,
  recoverSchema,
  recoverWebhookEventsResponse,
  registerSchema,
  rotateSecretSchema,
  updateEndpointSchema,
  webhookDeliveryResponse,
  webhookEndpointResponse,
  webhookEndpointStatsResponse,
} from './webhook-endpoints.schema';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { partnerScope } from '../../platform/partner-security';
import { adminModeQuery, withAdminMode } from '../partners';

/** A partner managing its own endpoints: the partner API's tag and the key scope it needs. */
const partnerApi = { tags: ['Webhooks'], security: partnerScope('webhooks:manage') };

/** The dashboard managing a partner's endpoints: its tag and the admin JWT. */
const adminApi = { tags: ['Admin webhooks'], security: [{ adminJwt: [] }] };

/** Who may change a partner's endpoints from the dashboard (any role reads). */
const adminChange = { ...adminApi, roles: ['owner', 'operator'] as const };

/** How a partner's call is refused for its key: none usable, one without the scope, or its organization's minute spent. */
const partnerRefused = { 401: answers.InvalidApiKey, 403: answers.InsufficientScope, 429: answers.RateLimited };

/** How a dashboard call that changes something is refused for its caller: no usable admin JWT, or a role that may not. */
const adminRefused = { 401: answers.InvalidAdminToken, 403: answers.InsufficientRole };

/** A conflict with the state of the endpoint or delivery, answered as a bare problem (each operation's overlay prose says which). */
const conflict = { content: { 'application/problem+json': problemSchema } };

/** How registering an endpoint is refused: bad JSON, a conflict, a body that is not JSON or not valid. */
const registerAnswers = {
  400: answers.InvalidJson,
  409: conflict,
  415: answers.UnsupportedMediaType,
  422: answers.ValidationFailed,
};

/** How changing one endpoint is refused: bad JSON, no such endpoint, a conflict with its state, a body that is not JSON or not valid. */
const changeAnswers = {
  400: answers.InvalidJson,
  404: answers.NotFound,
  409: conflict,
  415: answers.UnsupportedMediaType,
  422: answers.ValidationFailed,
};

/** How asking for a delivery (a test event, a retry, a replay) is refused: bad JSON, no such endpoint or delivery, a conflict with its state, a body that is not JSON. */
const deliveryRequestAnswers = {
  400: answers.InvalidJson,
  404: answers.NotFound,
  409: conflict,
  415: answers.UnsupportedMediaType,
};

/** How rotating an endpoint's secret is refused: bad JSON, no such endpoint, a body that is not JSON or not valid. */
const rotateAnswers = {
  400: answers.InvalidJson,
  404: answers.NotFound,
  415: answers.UnsupportedMediaType,
  422: answers.ValidationFailed,
};

/** How deleting an endpoint is refused: an unreadable request, no such endpoint, a body that is not JSON. */
const deleteAnswers = {
  400: answers.MalformedRequest,
  404: answers.NotFound,
  415: answers.UnsupportedMediaType,
};

/** Sending one of a partner's deliveries again (a retry, a replay): the endpoint's and the delivery's ids, and how it is answered. */
const partnerRedelivery = {
  ...partnerApi,
  params: z.object({ id: z.string(), delivery_id: z.string() }),
  responses: { 202: webhookDeliveryResponse, ...partnerRefused, ...deliveryRequestAnswers },
};

/** The same from the dashboard, in the live or test mode its query asks for. */
const adminRedelivery = {
  ...adminChange,
  params: z.object({ id: z.string(), delivery_id: z.string() }),
  query: adminModeQuery,
  responses: { 202: webhookDeliveryResponse, ...adminRefused, ...deliveryRequestAnswers },
};

/** The webhook-endpoints operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const webhookEndpointsContract = [
  route({
    operationId: 'createWebhookEndpoint',
    method: 'post',
    path: '/api/v1/webhooks',
    ...partnerApi,
    body: registerSchema,
    responses: {
      201: createdWebhookEndpointResponse,
      ...partnerRefused,
      ...registerAnswers,
    },
  }),
  route({
    operationId: 'listWebhookEndpoints',
    method: 'get',
    path: '/api/v1/webhooks',
    ...partnerApi,
    query: endpointListQuerySchema,
    responses: {
      200: listWebhookEndpointsResponse,
      400: answers.MalformedRequest,
      ...partnerRefused,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'getWebhookEndpoint',
    method: 'get',
    path: '/api/v1/webhooks/{id}',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    responses: {
      200: webhookEndpointResponse,
      400: answers.MalformedRequest,
      ...partnerRefused,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'updateWebhookEndpoint',
    method: 'patch',
    path: '/api/v1/webhooks/{id}',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    body: updateEndpointSchema,
    responses: {
      200: webhookEndpointResponse,
      ...partnerRefused,
      ...changeAnswers,
    },
  }),
  route({
    operationId: 'deleteWebhookEndpoint',
    method: 'delete',
    path: '/api/v1/webhooks/{id}',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    responses: {
      204: null,
      ...partnerRefused,
      ...deleteAnswers,
    },
  }),
  route({
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/api/v1/webhooks/{id}/rotate-secret',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    body: rotateSecretSchema,
    bodyOptional: true,
    responses: {
      200: createdWebhookEndpointResponse,
      ...partnerRefused,
      ...rotateAnswers,
    },
  }),
  route({
    operationId: 'sendWebhookTestEvent',
    method: 'post',
    path: '/api/v1/webhooks/{id}/test',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    responses: {
      202: webhookDeliveryResponse,
      ...partnerRefused,
      ...deliveryRequestAnswers,
    },
  }),
  route({
    operationId: 'recoverWebhookEvents',
    method: 'post',
    path: '/api/v1/webhooks/{id}/recover',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    body: recoverSchema,
    responses: {
      202: recoverWebhookEventsResponse,
      ...partnerRefused,
      ...changeAnswers,
      429: answers.PartnerRecoverTooSoon,
    },
  }),
  route({
    operationId: 'listWebhookDeliveries',
    method: 'get',
    path: '/api/v1/webhooks/{id}/deliveries',
    ...partnerApi,
    params: z.object({ id: z.string() }),
    query: messageListQuerySchema,
    responses: {
      200: listWebhookDeliveriesResponse,
      400: answers.MalformedRequest,
      ...partnerRefused,
      404: answers.NotFound,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'retryWebhookDelivery',
    method: 'post',
    path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
    ...partnerRedelivery,
  }),
  route({
    operationId: 'replayWebhookDelivery',
    method: 'post',
    path: '/api/v1/webhooks/{id}/deliveries/{delivery_id}/replay',
    ...partnerRedelivery,
  }),
  route({
    operationId: 'adminCreateWebhookEndpoint',
    method: 'post',
    path: '/admin/v1/webhooks',
    ...adminChange,
    audit: 'webhook_endpoint.created',
    query: adminModeQuery,
    body: registerSchema,
    responses: {
      201: createdWebhookEndpointResponse,
      ...adminRefused,
      ...registerAnswers,
    },
  }),
  route({
    operationId: 'adminListWebhookEndpoints',
    method: 'get',
    path: '/admin/v1/webhooks',
    ...adminApi,
    query: withAdminMode(endpointListQuerySchema),
    responses: {
      200: listWebhookEndpointsResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminGetWebhookEndpoint',
    method: 'get',
    path: '/admin/v1/webhooks/{id}',
    ...adminApi,
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    responses: {
      200: webhookEndpointResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'adminUpdateWebhookEndpoint',
    method: 'patch',
    path: '/admin/v1/webhooks/{id}',
    ...adminChange,
    audit: 'webhook_endpoint.updated',
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    body: updateEndpointSchema,
    responses: {
      200: webhookEndpointResponse,
      ...adminRefused,
      ...changeAnswers,
    },
  }),
  route({
    operationId: 'adminDeleteWebhookEndpoint',
    method: 'delete',
    path: '/admin/v1/webhooks/{id}',
    ...adminChange,
    audit: 'webhook_endpoint.deleted',
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    responses: {
      204: null,
      ...adminRefused,
      ...deleteAnswers,
    },
  }),
  route({
    operationId: 'adminRotateWebhookSecret',
    method: 'post',
    path: '/admin/v1/webhooks/{id}/rotate-secret',
    ...adminChange,
    audit: 'webhook_endpoint.secret_rotated',
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    body: rotateSecretSchema,
    bodyOptional: true,
    responses: {
      200: createdWebhookEndpointResponse,
      ...adminRefused,
      ...rotateAnswers,
    },
  }),
  route({
    operationId: 'adminSendWebhookTestEvent',
    method: 'post',
    path: '/admin/v1/webhooks/{id}/test',
    ...adminChange,
    audit: 'webhook_endpoint.test_sent',
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    responses: {
      202: webhookDeliveryResponse,
      ...adminRefused,
      ...deliveryRequestAnswers,
    },
  }),
  route({
    operationId: 'adminSendWebhookExampleEvent',
    method: 'post',
    path: '/admin/v1/webhooks/{id}/examples',
    ...adminChange,
    audit: 'webhook_endpoint.example_sent',
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    body: exampleEventSchema,
    responses: {
      202: webhookDeliveryResponse,
      ...adminRefused,
      ...deliveryRequestAnswers,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminGetWebhookEndpointStats',
    method: 'get',
    path: '/admin/v1/webhooks/{id}/stats',
    ...adminApi,
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    responses: {
      200: webhookEndpointStatsResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'adminRecoverWebhookEvents',
    method: 'post',
    path: '/admin/v1/webhooks/{id}/recover',
    ...adminChange,
    audit: 'webhook_endpoint.recovered',
    params: z.object({ id: z.string() }),
    query: adminModeQuery,
    body: recoverSchema,
    responses: {
      202: recoverWebhookEventsResponse,
      ...adminRefused,
      ...changeAnswers,
      429: answers.RecoverTooSoon,
    },
  }),
  route({
    operationId: 'adminListWebhookDeliveries',
    method: 'get',
    path: '/admin/v1/webhooks/{id}/deliveries',
    ...adminApi,
    params: z.object({ id: z.string() }),
    query: withAdminMode(messageListQuerySchema),
    responses: {
      200: listWebhookDeliveriesResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidAdminToken,
      404: answers.NotFound,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminRetryWebhookDelivery',
    method: 'post',
    path: '/admin/v1/webhooks/{id}/deliveries/{delivery_id}/retry',
    ...adminRedelivery,
    audit: 'webhook_delivery.retried',
  }),
  route({
    operationId: 'adminReplayWebhookDelivery',
    method: 'post',
    path: '/admin/v1/webhooks/{id}/deliveries/{delivery_id}/replay',
    ...adminRedelivery,
    audit: 'webhook_delivery.replayed',
  }),
] as const;
