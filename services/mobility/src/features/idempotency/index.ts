/** The idempotency feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { runIdempotent, validIdempotencyKey } from './idempotency.service';
