import { createHash } from 'node:crypto';
import type { MobilityConfig } from '../config';

/** The keys that protect delivery data, each its own secret (JWT_SECRET never keys them). */
export interface JobSecrets {
  /** PIN_FINGERPRINT_SECRET: keys the HMAC of a security PIN kept with an Idempotency-Key's request (never the PIN). */
  pinFingerprintKey: string;
  /** TRACKING_TOKEN_SECRET: keys the HMAC that derives each delivery's tracking token from its id. */
  trackingTokenKey: string;
}

type SecretName = 'PIN_FINGERPRINT_SECRET' | 'TRACKING_TOKEN_SECRET';

/**
 * A public development value for an unset secret: the SHA-256 of a fixed label naming the variable, so it shares nothing
 * with JWT_SECRET or with the other secret. Anyone can compute it, which is why production refuses to run without the
 * variable (the strength of a set value is checked by the config schema).
 */
export function developmentSecret(name: SecretName): string {
  return createHash('sha256').update(`partner-platform mobility development ${name} (public, never for production)`).digest('hex');
}

/** The job secrets of this process; with NODE_ENV=production each must be set (one line naming the missing variable). */
export function jobSecretsFrom(config: Pick<MobilityConfig, 'NODE_ENV' | SecretName>): JobSecrets {
  const secret = (name: SecretName): string => {
    const value = config[name];
    if (value) return value;
    if (config.NODE_ENV === 'production') throw new Error(`${name} is required when NODE_ENV=production`);
    return developmentSecret(name);
  };
  return { pinFingerprintKey: secret('PIN_FINGERPRINT_SECRET'), trackingTokenKey: secret('TRACKING_TOKEN_SECRET') };
}
