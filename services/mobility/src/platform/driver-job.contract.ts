import { z } from 'zod';
import { answers } from './responses';

/**
 * What every driver-app operation on one of the driver's jobs shares, rides (driver-app) and deliveries (the courier's
 * steps) alike: its tag, the driver's token and the job's id; and how moving a job on is refused, whatever the step:
 * bad JSON, a bad token, no such job of this driver's, a step the job's status does not allow, or a body that is not JSON.
 */
export const driverJob = { tags: ['Driver app'], security: [{ driverJwt: [] }], params: z.object({ id: z.string() }) };

export const stepAnswers = {
  400: answers.InvalidJson,
  401: answers.InvalidDriverToken,
  404: answers.NotFound,
  409: answers.InvalidTransition,
  415: answers.UnsupportedMediaType,
};
