import { z } from 'zod';
import { deliveryStatusResponse } from '../deliveries/deliveries.schema';
import { rideStatusResponse } from '../rides/rides.schema';

/** What the sandbox feature answers: its response schemas, the only description of those shapes (`.meta({ id })` names the component). */

export const sandboxTransitionRefusedResponse = z.object({
  type: z.url().meta({ description: 'The documentation URL of the code: `ERROR_DOCS_BASE_URL` followed by the code (default https://docs.partner-platform.example/errors/<code>).' }),
  title: z.string().meta({ description: "The HTTP status's reason phrase." }),
  status: z.int().min(400).max(599).meta({ description: 'The HTTP status of this answer.' }),
  detail: z.string().meta({ description: 'Text for a person about this occurrence.' }),
  error: z.string().meta({ description: 'The same text as `detail`, kept for clients written before Problem Details.' }),
  code: z.literal('sandbox_transition_not_allowed'),
  current_status: z.string(),
  allowed_targets: z.array(z.string()),
});

/** What a partner sends: the request shapes of the sandbox operations (the description's request schemas). */

export const advanceRideSchema = z
  .object({
    to: z.enum(rideStatusResponse.options).meta({ description: 'The next status, or any status further along: every transition in between happens too, in order.' }),
  })
  .strict()
  .meta({
    id: 'SandboxRideAdvance',
    description: 'Test mode only. Moves a test ride to `to` (`accepted`, `arrived`, `in_progress`, `completed`, or `no_drivers_available` from `pending`).',
    examples: [{ to: 'completed' }],
  });

export const advanceDeliverySchema = z
  .object({
    to: z.enum(deliveryStatusResponse.options).meta({ description: 'The next status, or any status further along: every transition in between happens too, in order.' }),
    courier_progress: z.number().min(0).max(1).optional().meta({
      description:
        'With `to: picked_up` only: puts the sandbox courier this far along the route line (0 the pick-up, 1 the drop-off), as its tracking page shows. A delivery already `picked_up` may be advanced to `picked_up` again to move the courier on.',
    }),
  })
  .strict()
  .refine((body) => body.courier_progress === undefined || body.to === 'picked_up', { path: ['courier_progress'], message: 'only goes with to: picked_up' })
  .meta({
    id: 'SandboxDeliveryAdvance',
    description: 'Test mode only. Moves a test delivery to `to` (`courier_assigned`, `picked_up`, `delivered` without a PIN, or `failed`).',
    examples: [{ to: 'delivered' }, { to: 'picked_up', courier_progress: 0.5 }],
  });
