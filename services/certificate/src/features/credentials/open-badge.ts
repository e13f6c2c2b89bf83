import { statusListEntry } from './status-list';

/** The JSON-LD contexts of a VC 2.0 Open Badges 3.0 credential; verifiers of this platform never fetch them. */
export const OPEN_BADGE_CONTEXTS = ['https://www.w3.org/ns/credentials/v2', 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json'];

export interface OpenBadgeFacts {
  pageUrl: string;
  issuerDid: string;
  organizationName: string;
  recipientName: string;
  programTitle: string;
  issueDate: string;
  expiresOn: string | null;
  statusListPosition: number;
  publicBaseUrl: string;
}

/** A certificate is valid through its expiry date (UTC), so the credential is valid until that day's last second. */
export function validUntilOf(expiresOn: string): string {
  return `${expiresOn}T23:59:59Z`;
}

/**
 * The certificate as an Open Badges 3.0 `OpenBadgeCredential` (a W3C Verifiable Credential 2.0). The platform signs it
 * (`issuer.id` is its did:web) on behalf of the organization, whose name is `issuer.name`; the recipient is named by an
 * unhashed `name` identifier, as the certificate names them. Its id is the public credential page.
 */
export function openBadgeCredential(facts: OpenBadgeFacts) {
  return {
    '@context': OPEN_BADGE_CONTEXTS,
    id: facts.pageUrl,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: facts.programTitle,
    issuer: { id: facts.issuerDid, type: ['Profile'], name: facts.organizationName },
    validFrom: `${facts.issueDate}T00:00:00Z`,
    ...(facts.expiresOn ? { validUntil: validUntilOf(facts.expiresOn) } : {}),
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: facts.recipientName }],
      achievement: {
        id: `${facts.pageUrl}#achievement`,
        type: ['Achievement'],
        name: facts.programTitle,
        description: `${facts.programTitle}, awarded by ${facts.organizationName}.`,
        criteria: { narrative: `Completed ${facts.programTitle} as recorded by ${facts.organizationName}.` },
        creator: { id: facts.issuerDid, type: ['Profile'], name: facts.organizationName },
      },
    },
    credentialStatus: statusListEntry(facts.publicBaseUrl, facts.statusListPosition),
  };
}

export type OpenBadgeCredential = ReturnType<typeof openBadgeCredential>;
