import { z } from 'zod';
import { route } from '@platform/service-kit/route-table';

export const readinessSchema = z.object({
  status: z.enum(["ready", "unavailable"]),
  checks: z.record(z.string(), z.enum(["up", "down"])),
  error: z.string().optional(),
  code: z.string().optional(),
}).meta({ id: "Readiness" });

export const operationsRouteTable = [
  route({
    operationId: 'healthz',
    method: 'get',
    path: '/healthz',
    tags: ["Operations"],
    security: [],
    responses: {
      200: z.object({
  status: z.literal("ok"),
}),
    },
  }),
  route({
    operationId: 'readyz',
    method: 'get',
    path: '/readyz',
    tags: ["Operations"],
    security: [],
    responses: {
      200: readinessSchema,
      503: readinessSchema,
    },
  }),
  route({
    operationId: 'metrics',
    method: 'get',
    path: '/metrics',
    tags: ["Operations"],
    security: [],
    responses: {
      200: { content: { "text/plain": z.string() } },
    },
  }),
  route({
    operationId: 'openapi',
    method: 'get',
    path: '/openapi.json',
    tags: ["Operations"],
    security: [],
    responses: {
      200: z.object({}),
    },
  }),
] as const;
