import { Router } from 'express';
import { z } from 'zod';
import { parseOrThrow } from '@platform/service-kit';
import { latLngSchema } from '../../platform/geo';
import { accountOf, requireScope } from '../api-keys';
import type { EstimateService } from './estimates.service';

export const estimateSchema = z
  .object({ pickup: latLngSchema, dropoff: latLngSchema })
  .meta({ id: 'EstimateRequest', examples: [{ pickup: { lat: 6.4541, lng: 3.3947 }, dropoff: { lat: 6.4281, lng: 3.4219 } }] });

/** `/api/v1/estimates` (mounted behind API key authentication). */
export function estimateRoutes(estimates: EstimateService): Router {
  const router = Router();
  router.post('/', requireScope('estimates:read'), async (req, res) => {
    const body = parseOrThrow(estimateSchema, req.body);
    res.json(await estimates.createEstimate(accountOf(req), body.pickup, body.dropoff));
  });
  return router;
}
