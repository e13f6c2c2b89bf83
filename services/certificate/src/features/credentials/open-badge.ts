import { statusListEntry } from './status-list';

/**
 * The JSON-LD contexts of a VC 2.0 Open Badges 3.0 credential; verifiers of this platform never fetch them. 1EdTech's
 * extensions context defines the `1EdTechJsonSchemaValidator2019` type of `credentialSchema`, which the OB 3.0.3 context
 * does not.
 */
export const OPEN_BADGE_CONTEXTS = [
  'https://www.w3.org/ns/credentials/v2',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
  'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
];

export interface OpenBadgeFacts {
  pageUrl: string;
  issuerDid: string;
  organizationName: string;
  recipientName: string;
  programTitle: string;
  /** The day the certificate names as its issue date (`YYYY-MM-DD`). */
  issueDate: string;
  /** The moment the certificate was issued (its row was created). */
  issuedAt: Date;
  expiresOn: string | null;
  statusListPosition: number;
  publicBaseUrl: string;
  /** The recipient's email as its salted hash (`sha256$…`) and salt, when the certificate was issued with one. */
  recipientEmail?: { hash: string; salt: string } | null;
  /** The issuer Profile's `url` (its proved domain) and `image` (its logo), when it has them. */
  issuerProfile?: { url?: string; image?: { id: string; type: 'Image' } };
}

/**
 * OB 3.0's `IdentityObject` of the recipient's email: hashed, never the address (`identityHash` is `sha256$` and the
 * hex SHA-256 of the lowercased address followed by `salt`, a random salt of this certificate).
 */
export function emailIdentityObject(email: { hash: string; salt: string }) {
  return { type: 'IdentityObject', identityHash: email.hash, identityType: 'emailAddress', hashed: true, salt: email.salt };
}

/** The Open Badges 3.0 JSON Schema an `AchievementCredential` / `OpenBadgeCredential` conforms to. */
export const OPEN_BADGE_CREDENTIAL_SCHEMA = {
  id: 'https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json',
  type: '1EdTechJsonSchemaValidator2019',
};

/** An instant as an ISO 8601 UTC timestamp to the second (`2026-11-29T14:55:05Z`), as JWT times and proofs have it. */
export function toSecondTimestamp(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** A certificate is valid through its expiry date (UTC), so the credential is valid until that day's last second. */
export function validUntilOf(expiresOn: string): string {
  return `${expiresOn}T23:59:59Z`;
}

/** The badge's picture (an OB 3.0 `Image`), served by the platform beside the credential page (`{page}/badge.png`). */
export function achievementImage(facts: Pick<OpenBadgeFacts, 'pageUrl' | 'programTitle' | 'organizationName'>) {
  return { id: `${facts.pageUrl}/badge.png`, type: 'Image', caption: `Badge of ${facts.programTitle}, awarded by ${facts.organizationName}` };
}

/**
 * The certificate as an Open Badges 3.0 `OpenBadgeCredential` (a W3C Verifiable Credential 2.0). The platform signs it
 * (`issuer.id` is its did:web) on behalf of the organization, whose name is `issuer.name`; the recipient is named by an
 * unhashed `name` identifier, as the certificate names them, and by their hashed email when it was issued with one. Its
 * id is the public credential page. It is valid from the moment the certificate was issued; the certificate's issue date
 * is its `awardedDate`. The achievement's `image` is the badge the platform serves for it (the template's logo, else a
 * drawn badge).
 */
export function openBadgeCredential(facts: OpenBadgeFacts) {
  return {
    '@context': OPEN_BADGE_CONTEXTS,
    id: facts.pageUrl,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: facts.programTitle,
    issuer: { id: facts.issuerDid, type: ['Profile'], name: facts.organizationName, ...facts.issuerProfile },
    validFrom: toSecondTimestamp(facts.issuedAt),
    awardedDate: `${facts.issueDate}T00:00:00Z`,
    ...(facts.expiresOn ? { validUntil: validUntilOf(facts.expiresOn) } : {}),
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [
        { type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: facts.recipientName },
        ...(facts.recipientEmail ? [emailIdentityObject(facts.recipientEmail)] : []),
      ],
      achievement: {
        id: `${facts.pageUrl}#achievement`,
        type: ['Achievement'],
        name: facts.programTitle,
        description: `${facts.programTitle}, awarded by ${facts.organizationName}.`,
        criteria: { narrative: `Completed ${facts.programTitle} as recorded by ${facts.organizationName}.` },
        image: achievementImage(facts),
        creator: { id: facts.issuerDid, type: ['Profile'], name: facts.organizationName },
      },
    },
    credentialSchema: [OPEN_BADGE_CREDENTIAL_SCHEMA],
    credentialStatus: statusListEntry(facts.publicBaseUrl, facts.statusListPosition),
  };
}

export type OpenBadgeCredential = ReturnType<typeof openBadgeCredential>;
