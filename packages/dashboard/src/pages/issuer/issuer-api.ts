/**
 * The organization's own issuer (`/admin/v1/issuer`): its DID and keys, key rotation, and proving a domain. Not split by
 * live/test mode (the routes take no `?mode=`): the same issuer signs live and test credentials.
 */
import { request } from '../../api/http';
import type { CertificateSchemas } from '../../api/types';

export type Issuer = CertificateSchemas['Issuer'];
export type DomainVerification = CertificateSchemas['DomainVerification'];

/** The react-query key of the issuer, set from every answer that returns it. */
export const ISSUER_QUERY = ['issuer'];

export const getIssuer = () => request<Issuer>('certificate', '/issuer');
/** Owners only: a new current key; the old ones stay in the DID document, so what they signed keeps verifying. */
export const rotateIssuerKey = () => request<Issuer>('certificate', '/issuer/keys/rotate', { method: 'POST' });
/** Owners only: the token to serve and exactly where; a new start replaces a pending one. */
export const startDomainVerification = (domain: string) =>
  request<DomainVerification>('certificate', '/issuer/domain-verification', { method: 'POST', body: { domain } });
/** Owners only: the platform fetches the proof file; 422 `domain_*` or 409 `no_domain_verification` when it cannot. */
export const checkDomainVerification = () => request<Issuer>('certificate', '/issuer/domain-verification/check', { method: 'POST' });

/** What to do about a refused check, beside the API's own words. */
export const CHECK_ADVICE: Record<string, string> = {
  domain_refused: 'The domain must resolve to a public address the platform may fetch from.',
  domain_unreachable: 'Serve the file over HTTPS with status 200 (redirects are not followed) and try again.',
  domain_proof_mismatch: 'Put the token, exactly as shown, on its own line of the file and try again.',
  no_domain_verification: 'Start a domain verification first.',
};
