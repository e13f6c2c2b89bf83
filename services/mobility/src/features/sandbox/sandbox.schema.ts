import { z } from 'zod';

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
