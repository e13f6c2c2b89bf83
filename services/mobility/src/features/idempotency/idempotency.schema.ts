import { z } from 'zod';

/** What a partner sends: the `Idempotency-Key` header of a create that honours one. */

export const IDEMPOTENCY_KEY_MESSAGE = 'must be 1-255 visible ASCII characters';

/**
 * An `Idempotency-Key` header: 1-255 visible ASCII characters, one message whatever is wrong (a route table entry
 * declares it; the description shows its `maxLength`).
 */
export const idempotencyKeySchema = z
  .string()
  .max(255, { error: IDEMPOTENCY_KEY_MESSAGE, abort: true })
  .refine((key) => /^[\x21-\x7e]+$/.test(key), IDEMPOTENCY_KEY_MESSAGE);
