import { z } from 'zod';

/**
 * The key as both admin APIs answer it, as a response schema: the `ApiKey` component of the certificate and mobility
 * descriptions, and the type of the shared presenter (`ApiKeyView`), so the answer and its description cannot drift.
 */

const dateTime = () => z.iso.datetime({ offset: true });

export const apiKeySchema = z.object({
  id: z.string().regex(/^key_/),
  name: z.string().min(1).max(100),
  status: z.enum(['active', 'expired', 'revoked']).meta({ description: '`expired` once `expires_at` has passed; an expired or revoked key is refused with 401 `Invalid or revoked API key`.' }),
  scopes: z.array(z.string()).meta({ description: 'What the key may do (mobility keys only; certificate keys carry no scopes).' }).optional(),
  livemode: z.boolean().meta({ description: 'False for a test-mode key (`mk_test_…` or `ck_test_…`, created with `mode: test`): a mobility test key\'s rides, deliveries and webhooks are test data; a certificate test key verifies test certificates as `test` and spends nothing.' }).optional(),
  token_hint: z.string().meta({ description: "The token's first 7 characters and last 4, to recognise it (`ck_AbCd…wxyz`, `ck_test…wxyz`, `mk_AbCd…wxyz`, `mk_test…wxyz`)." }),
  created_at: dateTime(),
  updated_at: dateTime(),
  last_used_at: dateTime().nullable().meta({ description: 'The last authenticated request, recorded at most once a minute.' }),
  expires_at: dateTime().nullable().meta({ description: 'Set at creation; null for a key that does not expire.' }),
  rotated_at: dateTime().nullable(),
  revoked_at: dateTime().nullable(),
  previous_token_expires_at: dateTime().nullable().meta({ description: 'Until when the token replaced by the last rotation still works (rotation with `grace_seconds`); null when it stopped at once.' }),
  token: z.string().regex(/^(ck_|ck_test_|mk_|mk_test_)[0-9A-Za-z]{36}$/).meta({ description: 'The secret token, shown on create and rotate only.' }).optional(),
}).meta({ id: 'ApiKey', description: "An organization API key as both services' admin APIs answer it (the certificate and mobility descriptions hold this same schema). Never the token's hash; the token itself only in the answers of create and rotate." });

/**
 * The answer of create and rotate (`ApiKeyWithToken`): the key with its new token. Each service spells its own token
 * (its prefix) and, where its keys always carry scopes, requires them; the rest is `apiKeySchema`.
 */
export function apiKeyWithTokenSchema<Fields extends { token: z.ZodType<string>; scopes?: z.ZodType<string[]> }>(fields: Fields) {
  return apiKeySchema.extend(fields).meta({ id: 'ApiKeyWithToken', description: 'A key with its new token (create and rotate).' });
}
