import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { adminOf, NotFoundError, parseOrThrow } from '@platform/service-kit';
import { fleetManager } from '../fleet';
import { isGuessFailure, type DriverSessionService } from './driver-sessions.service';
import type { SignInThrottle } from './signin-throttle';

export const signInSchema = z
  .object({ activation_code: z.string().min(1).max(64) })
  .meta({ id: 'DriverSignIn', examples: [{ activation_code: 'K7QF-3M9X-TR2D' }] });

export const refreshSchema = z
  .object({ refresh_token: z.string().min(1).max(200) })
  .meta({ id: 'DriverSessionRefresh', examples: [{ refresh_token: 'drt_4fQ9sV2mXk8LpR7tW3nB6yC1dZ5hJ0gE2aU9iO4eT7s' }] });

/** `/driver/v1/sessions`: sign in with an activation code, refresh, and (behind `driverAuth`) sign out. */
export function driverSessionRoutes(sessions: DriverSessionService, throttle: SignInThrottle, driverAuth: RequestHandler): Router {
  const router = Router();

  router.post('/', async (req, res) => {
    const { activation_code } = parseOrThrow(signInSchema, req.body);
    await throttle.check(req);
    try {
      res.status(201).set('Cache-Control', 'no-store').json(await sessions.signIn(activation_code));
    } catch (error) {
      if (isGuessFailure(error)) await throttle.recordFailure(req);
      throw error;
    }
  });

  router.post('/refresh', async (req, res) => {
    const { refresh_token } = parseOrThrow(refreshSchema, req.body);
    res.set('Cache-Control', 'no-store').json(await sessions.refresh(refresh_token));
  });

  router.delete('/current', driverAuth, async (req, res) => {
    if (!req.driverSessionId) {
      // An operator-minted token (no `sid`) has no session: it stays valid until its `exp`, or until the driver is disabled.
      throw new NotFoundError('This token was not issued by a sign-in, so it has no session to end');
    }
    await sessions.signOut(req.driverSessionId);
    res.status(204).end();
  });
  return router;
}

/** `/admin/v1/drivers/{id}/activation-codes`: a fresh code for one of the organization's drivers. */
export function activationCodeAdminRoutes(sessions: DriverSessionService): Router {
  const router = Router();
  router.post('/:id/activation-codes', fleetManager, async (req, res) => {
    res.status(201).set('Cache-Control', 'no-store').json(await sessions.issueActivationCode(adminOf(req).org, req.params.id as string));
  });
  return router;
}
