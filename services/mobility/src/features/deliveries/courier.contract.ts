import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { driverJob, stepAnswers } from '../../platform/driver-job.contract';
import { deliverSchema, failSchema } from './deliveries.schema';

/** The courier's steps on a delivery, in the driver app (`/driver/v1/deliveries/{id}/…`); prose lives in openapi.overlay.yaml. */
export const courierContract = [
  route({
    operationId: 'courierPickUp',
    method: 'post',
    path: '/driver/v1/deliveries/{id}/pickup',
    ...driverJob,
    responses: {
      200: answers.DeliveryMoved,
      ...stepAnswers,
    },
  }),
  route({
    operationId: 'courierDeliver',
    method: 'post',
    path: '/driver/v1/deliveries/{id}/deliver',
    ...driverJob,
    body: deliverSchema,
    responses: {
      200: answers.DeliveryMoved,
      400: answers.InvalidJson,
      401: answers.InvalidDriverToken,
      403: answers.PinRefused,
      404: answers.NotFound,
      409: answers.InvalidTransition,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'courierFail',
    method: 'post',
    path: '/driver/v1/deliveries/{id}/fail',
    ...driverJob,
    body: failSchema,
    responses: {
      200: answers.DeliveryMoved,
      ...stepAnswers,
      422: answers.ValidationFailed,
    },
  }),
] as const;
