import { z } from 'zod';

/** What the feature is sent: the request schemas its routes parse with (the description's request shapes). */

export const CREDENTIAL_TEXT_LIMIT = 100_000;

export const verifyRequestSchema = z
  .object({
    credential: z.union([z.string().min(1).max(CREDENTIAL_TEXT_LIMIT), z.record(z.string(), z.unknown())]).optional(),
    code: z.string().min(1).max(64).optional(),
  })
  .strict()
  .refine((body) => (body.credential === undefined) !== (body.code === undefined), { message: 'send exactly one of credential and code' })
  .meta({
    id: 'CredentialVerificationRequest',
    description: 'Exactly one of `credential` (the credential with its Data Integrity proof, the JWT, or the enveloped JWT; an object or its JSON text) and `code`.',
    examples: [{ code: 'ABCDEF-GHJKMN-PQRSTU' }, { credential: 'eyJhbGciOiJFZERTQSJ9.eyJpZCI6InVybjpleGFtcGxlIn0.c2lnbmF0dXJl' }],
  });

export type VerifyRequest = z.infer<typeof verifyRequestSchema>;
