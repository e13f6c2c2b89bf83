import { adminOf } from '@platform/service-kit/admin-auth';
import type { Handlers } from '@platform/service-kit/operations';
import type { issuersRouteTable } from './issuers.contract';
import type { IssuersService } from './issuers.service';

/** The organization's issuer: its public DID document, and for its dashboard its keys and its domain proof. */
export function issuersHandlers(issuers: IssuersService): Handlers<typeof issuersRouteTable> {
  return {
    getOrganizationDidDocument: async ({ params, res }) => {
      const document = await issuers.didDocument(params.organization);
      res.set({ 'Content-Type': 'application/did+json', 'Cache-Control': 'public, max-age=300' }).send(JSON.stringify(document));
    },
    getIssuer: async ({ req }) => ({ status: 200, body: await issuers.view(adminOf(req).org) }),
    rotateIssuerKey: async ({ req }) => ({ status: 200, body: await issuers.rotateKey(adminOf(req).org) }),
    startIssuerDomainVerification: async ({ body, req }) => ({ status: 201, body: await issuers.startDomainVerification(adminOf(req).org, body.domain) }),
    checkIssuerDomainVerification: async ({ req }) => ({ status: 200, body: await issuers.checkDomainVerification(adminOf(req).org) }),
  };
}
