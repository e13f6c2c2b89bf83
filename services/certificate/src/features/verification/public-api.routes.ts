import { Router } from 'express';
import { INVALID_KEY_MESSAGE, principalOf, type ApiKeyService } from '@platform/api-keys';
import { NotFoundError, UnauthorizedError, sendJsonWithEtag } from '@platform/service-kit';
import { requireApiKey } from '../api-keys';
import { normalizeVerificationCode } from '../certificates';
import { isFound, type PublicApiRepository } from './public-api.repository';
import { creditsView, verificationView } from './public-api.presenter';

export interface PublicApiDeps {
  apiKeys: ApiKeyService;
  publicApi: PublicApiRepository;
}

/** An organization deleted under a live key: the key is as good as revoked. */
function keyWithoutOrganization(): UnauthorizedError {
  return new UnauthorizedError(INVALID_KEY_MESSAGE, 'invalid_api_key');
}

/** `GET /api/v1/credits` and `GET /api/v1/verify/{code}`: the partner-facing API. */
export function publicApiRoutes({ apiKeys, publicApi }: PublicApiDeps): Router {
  const router = Router();
  const apiKey = requireApiKey(apiKeys);

  router.get('/api/v1/credits', apiKey, async (req, res) => {
    const { organizationId, keyId } = principalOf(req);
    const row = await publicApi.credits(organizationId, keyId);
    if (!row) throw keyWithoutOrganization();
    res.json(creditsView(row));
  });

  router.get('/api/v1/verify/:code', apiKey, async (req, res) => {
    const row = await publicApi.verification(principalOf(req).organizationId, normalizeVerificationCode(req.params.code as string));
    if (!row) throw keyWithoutOrganization();
    if (!isFound(row)) throw new NotFoundError('Certificate not found', { valid: false });
    sendJsonWithEtag(req, res, verificationView(row));
  });
  return router;
}
