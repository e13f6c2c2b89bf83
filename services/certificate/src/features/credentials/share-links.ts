/** What LinkedIn's "Add to profile" link pre-fills for a certificate. */
export interface LinkedInCertification {
  programTitle: string;
  organizationName: string;
  issueDate: string;
  expiresOn: string | null;
  pageUrl: string;
  credentialId: string;
}

/**
 * LinkedIn's add-to-profile URL (`startTask=CERTIFICATION_NAME`): name, organization, issue month and year, expiry
 * when there is one, the credential page as the credential URL and the verification code as the credential id.
 * Following it is the person's choice: the page itself makes no request to LinkedIn.
 */
export function linkedInAddToProfileUrl(cert: LinkedInCertification): string {
  const params: Array<[string, string]> = [
    ['startTask', 'CERTIFICATION_NAME'],
    ['name', cert.programTitle],
    ['organizationName', cert.organizationName],
    ['issueYear', cert.issueDate.slice(0, 4)],
    ['issueMonth', String(Number(cert.issueDate.slice(5, 7)))],
    ...(cert.expiresOn
      ? ([['expirationYear', cert.expiresOn.slice(0, 4)], ['expirationMonth', String(Number(cert.expiresOn.slice(5, 7)))]] as Array<[string, string]>)
      : []),
    ['certUrl', cert.pageUrl],
    ['certId', cert.credentialId],
  ];
  return `https://www.linkedin.com/profile/add?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}
