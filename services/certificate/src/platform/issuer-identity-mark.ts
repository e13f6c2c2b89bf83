/** The words a credential page, a document and a verifier answer put beside the issuer's name. */
export function issuerIdentityMark(domain: string | null): string {
  return domain ? `verified domain ${domain}` : 'issuer identity not verified';
}
