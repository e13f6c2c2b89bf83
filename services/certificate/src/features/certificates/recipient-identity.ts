import { createHash, randomBytes } from 'node:crypto';

/** How the credential names the recipient's email: its salted SHA-256, as Open Badges 3.0's `IdentityObject` has it. */
export interface RecipientIdentity {
  salt: string;
  /** `sha256$` and the hex SHA-256 of the lowercased address followed by the salt. */
  hash: string;
}

/** `sha256$<hex of sha256(lowercased email + salt)>`, OB 3.0's `identityHash` of a hashed identity. */
export function identityHash(email: string, salt: string): string {
  return `sha256$${createHash('sha256').update(email.toLowerCase() + salt).digest('hex')}`;
}

/** A new random salt (16 bytes as hex) per certificate, so the same address hashes differently on every credential. */
export function newRecipientIdentity(email: string): RecipientIdentity {
  const salt = randomBytes(16).toString('hex');
  return { salt, hash: identityHash(email, salt) };
}
