import { INVALID_KEY_MESSAGE, principalOf } from '@platform/api-keys';
import { NotFoundError, UnauthorizedError } from '@platform/service-kit/errors';
import type { Handlers } from '@platform/service-kit/operations';
import { normalizeVerificationCode } from '../certificates';
import type { publicApiRouteTable } from './public-api.contract';
import { creditsView, verificationView } from './public-api.presenter';
import { isFound, type PublicApiRepository } from './public-api.repository';

/** An organization deleted under a live key: the key is as good as revoked. */
function keyWithoutOrganization(): UnauthorizedError {
  return new UnauthorizedError(INVALID_KEY_MESSAGE, 'invalid_api_key');
}

/**
 * `GET /api/v1/credits` and `GET /api/v1/verify/{code}`: the partner-facing API (its hot reads are mostly answered by
 * `public-api.fast-lane.ts`, which gives the same answers; everything else comes here).
 */
export function publicApiHandlers(publicApi: PublicApiRepository): Handlers<typeof publicApiRouteTable> {
  return {
    getCredits: async ({ req }) => {
      const { organizationId, keyId, livemode } = principalOf(req);
      const row = await publicApi.credits(organizationId, keyId);
      if (!row) throw keyWithoutOrganization();
      return { status: 200, body: creditsView(row, livemode) };
    },
    verifyCertificate: async ({ params, req }) => {
      const row = await publicApi.verification(principalOf(req).organizationId, normalizeVerificationCode(params.code));
      if (!row) throw keyWithoutOrganization();
      if (!isFound(row)) throw new NotFoundError('Certificate not found', { valid: false });
      return { status: 200, body: verificationView(row), etag: true };
    },
  };
}
