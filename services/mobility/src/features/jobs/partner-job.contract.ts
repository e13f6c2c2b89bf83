import { z } from 'zod';
import { answers, headers } from '../../platform/responses';
import { adminModeQuery } from '../partners';

/**
 * What the route tables of rides and deliveries say alike of the operations partner-job.handlers.ts answers for both:
 * the job's reads, its event stream and its cancel answer the same way whatever the job, so they are declared once here.
 */

/** `If-None-Match` on a read of one job: the `ETag` of an earlier answer, to be told 304 when nothing changed. */
export const jobReadHeaders = z.object({ 'If-None-Match': z.string().meta({ examples: ["\"q9Zb1x7dM0y3\""] }).optional() });

/** A job read by id: its JSON, with the `ETag` to send back in `If-None-Match`. */
export const jobWithEtag = <Job extends z.ZodType>(job: Job) => ({ headers: { 'ETag': headers['ETag'] }, content: { 'application/json': job } });

/** A job's event stream, whose status events carry the job (`Ride`, `Delivery`) and location events the driver's telemetry. */
export const jobEventStream = (job: string) => ({
  headers: { 'Cache-Control': { schema: z.string() }, 'X-Accel-Buffering': { schema: z.string() } },
  content: { 'text/event-stream': z.string().meta({ description: `\`event: status\` → \`data:\` is a \`${job}\`; \`event: location\` → \`data:\` is a \`Telemetry\`.\n` }) },
});

/** How a partner's call on its jobs is refused for its key: none usable, one without the read or write scope, its organization's minute spent. */
const partnerRefused = { 401: answers.InvalidApiKey, 403: answers.InsufficientScope, 429: answers.RateLimited };

/** How a partner's list of its jobs is refused: an unreadable request, no usable key or scope, a bad filter. */
export const partnerJobListAnswers = {
  400: answers.MalformedRequest,
  ...partnerRefused,
  422: answers.ValidationFailed,
};

/** How the dashboard's list of a partner's jobs is refused: an unreadable request, no usable admin JWT, a bad filter. */
export const adminJobListAnswers = {
  400: answers.MalformedRequest,
  401: answers.InvalidAdminToken,
  422: answers.ValidationFailed,
};

/** A partner's read of one job, besides the job: unchanged since the `ETag` sent, an unreadable request, no usable key or scope, no such job. */
export const partnerJobReadAnswers = {
  304: answers.NotModified,
  400: answers.MalformedRequest,
  ...partnerRefused,
  404: answers.NotFound,
};

/** The dashboard's read of one job, besides the job: unchanged since the `ETag` sent, an unreadable request, no usable admin JWT, no such job. */
const adminJobReadAnswers = {
  304: answers.NotModified,
  400: answers.MalformedRequest,
  401: answers.InvalidAdminToken,
  404: answers.NotFound,
};

/** How a partner's event stream of one job is refused: an unreadable request, no usable key or scope, no such job, too many open streams. */
export const jobStreamAnswers = {
  400: answers.MalformedRequest,
  ...partnerRefused,
  404: answers.NotFound,
  429: answers.TooManyStreams,
};

/** How a partner's cancel of one job is refused: bad JSON, no usable key or scope, no such job, a status that may not be cancelled, a body that is not JSON. */
export const jobCancelAnswers = {
  400: answers.InvalidJson,
  ...partnerRefused,
  404: answers.NotFound,
  409: answers.InvalidTransition,
  415: answers.UnsupportedMediaType,
};

/** The dashboard's read of one job by id, whatever the job: its tag, the admin JWT, the id, `If-None-Match`, the mode asked for, and every answer. */
export const adminJobRead = <Job extends z.ZodType>(job: Job) => ({
  tags: ['Admin trips'],
  security: [{ adminJwt: [] }],
  params: z.object({ id: z.string() }),
  headers: jobReadHeaders,
  query: adminModeQuery,
  responses: { 200: jobWithEtag(job), ...adminJobReadAnswers },
});
