import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';
import { answers } from '../../platform/responses';
import { adminModeQuery } from '../partners';
import { tripTimelineResponse } from './trip-timeline.schema';

const adminTimeline = {
  tags: ['Admin trips'],
  security: [{ adminJwt: [] }],
  params: z.object({ id: z.string() }),
  query: adminModeQuery,
  responses: {
    200: tripTimelineResponse,
    400: answers.MalformedRequest,
    401: answers.InvalidAdminToken,
    404: answers.NotFound,
  },
};

/** The dashboard's timeline of one ride or delivery: path, security, parameters and every answer. */
export const tripTimelineContract = [
  route({ operationId: 'adminGetRideTimeline', method: 'get', path: '/admin/v1/rides/{id}/timeline', ...adminTimeline }),
  route({ operationId: 'adminGetDeliveryTimeline', method: 'get', path: '/admin/v1/deliveries/{id}/timeline', ...adminTimeline }),
] as const;
