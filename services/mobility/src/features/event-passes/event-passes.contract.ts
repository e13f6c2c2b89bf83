import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import {
  createProgramSchema,
  eventPassPageSchema,
  eventPassProgramResponse,
  eventPassResponse,
  issueEventPassesResponse,
  issuePassesSchema,
  listEventPassProgramsResponse,
  listEventPassesResponse,
} from './event-passes.schema';
import { problemSchema } from '@platform/service-kit/problem-schema';
import { partnerScope } from '../../platform/partner-security';

/** Event passes have no test data: a test-mode key or dashboard session is refused (403 `test_mode_not_supported`). */
const liveOnly = { mode: 'live-only' } as const;

/** A partner reading its programs and passes: the partner API's tag and the read scope. */
const partnerReads = { tags: ['Event passes'], security: partnerScope('event_passes:read'), ...liveOnly };

/** A partner creating, issuing, closing or revoking: the partner API's tag and the write scope. */
const partnerWrites = { tags: ['Event passes'], security: partnerScope('event_passes:write'), ...liveOnly };

/** The dashboard reading a partner's programs and passes: its tag and the admin JWT (any role). */
const adminReads = { tags: ['Admin event passes'], security: [{ adminJwt: [] }], ...liveOnly };

/** The dashboard changing them: owners and operators. */
const adminWrites = { ...adminReads, roles: ['owner', 'operator'] as const };

/** How a partner's call is refused for its key: none usable, one without the scope, or its organization's minute spent. */
const partnerRefused = { 401: answers.InvalidApiKey, 403: answers.InsufficientScope, 429: answers.RateLimited };

/** A dashboard session in test mode (`?mode=test`, `?livemode=false`): event passes have no test data. */
const testModeRefused = {
  description: 'The session asks for test-mode data (`mode=test` or `livemode=false`); event passes have none (`test_mode_not_supported`).',
  content: { 'application/problem+json': problemSchema },
};

/** How a dashboard read is refused for its caller: no usable admin JWT, or a test-mode session. */
const adminReadRefused = { 401: answers.InvalidAdminToken, 403: testModeRefused };

/** How a dashboard change is refused for its caller: no usable admin JWT, a role that may not, or a test-mode session. */
const adminRefused = {
  401: answers.InvalidAdminToken,
  403: {
    description: "The caller's role may not do this (`insufficient_role`: owners and operators may), or the session asks for test-mode data, which event passes do not have (`test_mode_not_supported`).",
    content: { 'application/problem+json': problemSchema },
  },
};

/** How creating a program is refused: bad JSON, a body that is not JSON or not valid. */
const createAnswers = {
  400: answers.InvalidJson,
  415: answers.UnsupportedMediaType,
  422: answers.ValidationFailed,
};

/** How issuing passes is refused: bad JSON, no such program, a conflict with its state, a body that is not JSON or not valid. */
const issueAnswers = {
  400: answers.InvalidJson,
  404: answers.NotFound,
  409: { content: { 'application/problem+json': problemSchema } },
  415: answers.UnsupportedMediaType,
  422: answers.ValidationFailed,
};

/** How closing a program or revoking a pass is refused: bad JSON, no such program or pass, a body that is not JSON. */
const endAnswers = {
  400: answers.InvalidJson,
  404: answers.NotFound,
  415: answers.UnsupportedMediaType,
};

/** The event-passes operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const eventPassesContract = [
  route({
    operationId: 'createEventPassProgram',
    method: 'post',
    path: '/api/v1/event-pass-programs',
    ...partnerWrites,
    body: createProgramSchema,
    responses: {
      201: eventPassProgramResponse,
      ...partnerRefused,
      ...createAnswers,
    },
  }),
  route({
    operationId: 'listEventPassPrograms',
    method: 'get',
    path: '/api/v1/event-pass-programs',
    ...partnerReads,
    query: eventPassPageSchema,
    responses: {
      200: listEventPassProgramsResponse,
      400: answers.MalformedRequest,
      ...partnerRefused,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'getEventPassProgram',
    method: 'get',
    path: '/api/v1/event-pass-programs/{id}',
    ...partnerReads,
    params: z.object({ id: z.string() }),
    responses: {
      200: eventPassProgramResponse,
      400: answers.MalformedRequest,
      ...partnerRefused,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'closeEventPassProgram',
    method: 'post',
    path: '/api/v1/event-pass-programs/{id}/close',
    ...partnerWrites,
    params: z.object({ id: z.string() }),
    responses: {
      200: eventPassProgramResponse,
      ...partnerRefused,
      ...endAnswers,
    },
  }),
  route({
    operationId: 'issueEventPasses',
    method: 'post',
    path: '/api/v1/event-pass-programs/{id}/passes',
    ...partnerWrites,
    params: z.object({ id: z.string() }),
    body: issuePassesSchema,
    responses: {
      201: issueEventPassesResponse,
      ...partnerRefused,
      ...issueAnswers,
    },
  }),
  route({
    operationId: 'listEventPasses',
    method: 'get',
    path: '/api/v1/event-pass-programs/{id}/passes',
    ...partnerReads,
    params: z.object({ id: z.string() }),
    query: eventPassPageSchema,
    responses: {
      200: listEventPassesResponse,
      400: answers.MalformedRequest,
      ...partnerRefused,
      404: answers.NotFound,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'revokeEventPassById',
    method: 'post',
    path: '/api/v1/event-pass-programs/{id}/passes/{pass_id}/revoke',
    ...partnerWrites,
    params: z.object({ id: z.string(), pass_id: z.string() }),
    responses: {
      200: eventPassResponse,
      ...partnerRefused,
      ...endAnswers,
    },
  }),
  route({
    operationId: 'revokeEventPass',
    method: 'post',
    path: '/api/v1/event-passes/{code}/revoke',
    ...partnerWrites,
    params: z.object({ code: z.string() }),
    responses: {
      200: eventPassResponse,
      ...partnerRefused,
      ...endAnswers,
    },
  }),
  route({
    operationId: 'adminCreateEventPassProgram',
    method: 'post',
    path: '/admin/v1/event-pass-programs',
    ...adminWrites,
    audit: 'event_pass_program.created',
    body: createProgramSchema,
    responses: {
      201: eventPassProgramResponse,
      ...adminRefused,
      ...createAnswers,
    },
  }),
  route({
    operationId: 'adminListEventPassPrograms',
    method: 'get',
    path: '/admin/v1/event-pass-programs',
    ...adminReads,
    query: eventPassPageSchema,
    responses: {
      200: listEventPassProgramsResponse,
      400: answers.MalformedRequest,
      ...adminReadRefused,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminGetEventPassProgram',
    method: 'get',
    path: '/admin/v1/event-pass-programs/{id}',
    ...adminReads,
    params: z.object({ id: z.string() }),
    responses: {
      200: eventPassProgramResponse,
      400: answers.MalformedRequest,
      ...adminReadRefused,
      404: answers.NotFound,
    },
  }),
  route({
    operationId: 'adminCloseEventPassProgram',
    method: 'post',
    path: '/admin/v1/event-pass-programs/{id}/close',
    ...adminWrites,
    audit: 'event_pass_program.closed',
    params: z.object({ id: z.string() }),
    responses: {
      200: eventPassProgramResponse,
      ...adminRefused,
      ...endAnswers,
    },
  }),
  route({
    operationId: 'adminIssueEventPasses',
    method: 'post',
    path: '/admin/v1/event-pass-programs/{id}/passes',
    ...adminWrites,
    audit: 'event_pass.issued',
    params: z.object({ id: z.string() }),
    body: issuePassesSchema,
    responses: {
      201: issueEventPassesResponse,
      ...adminRefused,
      ...issueAnswers,
    },
  }),
  route({
    operationId: 'adminListEventPasses',
    method: 'get',
    path: '/admin/v1/event-pass-programs/{id}/passes',
    ...adminReads,
    params: z.object({ id: z.string() }),
    query: eventPassPageSchema,
    responses: {
      200: listEventPassesResponse,
      400: answers.MalformedRequest,
      ...adminReadRefused,
      404: answers.NotFound,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'adminRevokeEventPassById',
    method: 'post',
    path: '/admin/v1/event-pass-programs/{id}/passes/{pass_id}/revoke',
    ...adminWrites,
    audit: 'event_pass.revoked',
    params: z.object({ id: z.string(), pass_id: z.string() }),
    responses: {
      200: eventPassResponse,
      ...adminRefused,
      ...endAnswers,
    },
  }),
] as const;
