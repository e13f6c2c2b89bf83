import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { deliverSchema, failSchema } from '../deliveries/deliveries.schema';
import { deliveryResponse } from '../deliveries/deliveries.schema';
import { driverProfileResponse, telemetryResponse } from '../fleet/fleet.schema';
import { rideResponse } from '../rides/rides.schema';
import { availabilitySchema, declineOfferResponse, listDriverOffersResponse, locationSchema } from './driver-app.schema';

/** What every operation on one of the driver's jobs shares: its tag, the driver's token and the job's id. */
const driverJob = { tags: ['Driver app'], security: [{ driverJwt: [] }], params: z.object({ id: z.string() }) };

/** How moving a job on is refused, whatever the step: bad JSON, a bad token, no such job of this driver's, a step the job's status does not allow, or a body that is not JSON. */
const stepAnswers = {
  400: answers.InvalidJson,
  401: answers.InvalidDriverToken,
  404: answers.NotFound,
  409: answers.InvalidTransition,
  415: answers.UnsupportedMediaType,
};

/** The driver-app operations: path, security, parameters, body and every answer (prose lives in openapi.overlay.yaml). */
export const driverAppContract = [
  route({
    operationId: 'setDriverAvailability',
    method: 'post',
    path: '/driver/v1/availability',
    tags: ['Driver app'],
    security: [{ driverJwt: [] }],
    body: availabilitySchema,
    responses: {
      200: driverProfileResponse,
      400: answers.InvalidJson,
      401: answers.InvalidDriverToken,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'reportDriverLocation',
    method: 'post',
    path: '/driver/v1/location',
    tags: ['Driver app'],
    security: [{ driverJwt: [] }],
    body: locationSchema,
    responses: {
      200: telemetryResponse,
      400: answers.InvalidJson,
      401: answers.InvalidDriverToken,
      415: answers.UnsupportedMediaType,
      422: answers.ValidationFailed,
    },
  }),
  route({
    operationId: 'listDriverOffers',
    method: 'get',
    path: '/driver/v1/offers',
    tags: ['Driver app'],
    security: [{ driverJwt: [] }],
    responses: {
      200: listDriverOffersResponse,
      400: answers.MalformedRequest,
      401: answers.InvalidDriverToken,
    },
  }),
  route({
    operationId: 'acceptOffer',
    method: 'post',
    path: '/driver/v1/offers/{id}/accept',
    ...driverJob,
    responses: {
      200: { content: { 'application/json': z.xor([rideResponse, deliveryResponse]) } },
      ...stepAnswers,
    },
  }),
  route({
    operationId: 'declineOffer',
    method: 'post',
    path: '/driver/v1/offers/{id}/decline',
    ...driverJob,
    responses: {
      200: declineOfferResponse,
      ...stepAnswers,
    },
  }),
  route({
    operationId: 'driverArrived',
    method: 'post',
    path: '/driver/v1/rides/{id}/arrived',
    ...driverJob,
    responses: {
      200: answers.RideMoved,
      ...stepAnswers,
    },
  }),
  route({
    operationId: 'driverStartRide',
    method: 'post',
    path: '/driver/v1/rides/{id}/start',
    ...driverJob,
    responses: {
      200: answers.RideMoved,
      ...stepAnswers,
    },
  }),
  route({
    operationId: 'driverCompleteRide',
    method: 'post',
    path: '/driver/v1/rides/{id}/complete',
    ...driverJob,
    responses: {
      200: answers.RideMoved,
      ...stepAnswers,
    },
  }),
  route({
    operationId: 'driverCancelRide',
    method: 'post',
    path: '/driver/v1/rides/{id}/cancel',
    ...driverJob,
    responses: {
      200: answers.RideMoved,
      ...stepAnswers,
    },
  }),
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
