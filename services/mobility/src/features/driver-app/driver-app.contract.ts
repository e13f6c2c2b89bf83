import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { driverJob, stepAnswers } from '../../platform/driver-job.contract';
import { driverProfileResponse, telemetryResponse } from '../fleet/fleet.schema';
import { deliveryResponse } from '../deliveries/deliveries.schema';
import { rideResponse } from '../rides/rides.schema';
import { availabilitySchema, declineOfferResponse, listDriverOffersResponse, locationSchema } from './driver-app.schema';

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
] as const;
