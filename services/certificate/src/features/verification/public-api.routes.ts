import { Router } from 'express';
import { INVALID_KEY_MESSAGE, principalOf, type ApiKeyService } from '@platform/api-keys';
import { NotFoundError, UnauthorizedError, sendJsonWithEtag } from '@platform/service-kit';
import { requireApiKey } from '../api-keys/api-keys.routes';
import { certificateStatus } from '../certificates/certificate-status';
import { normalizeVerificationCode } from '../certificates/verification-code';
import type { PublicApiRepository } from './public-api.repository';

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
    res.json({ organization: row.organization_name, balance: row.balance, plan: row.plan });
  });

  router.get('/api/v1/verify/:code', apiKey, async (req, res) => {
    const row = await publicApi.verification(principalOf(req).organizationId, normalizeVerificationCode(req.params.code as string));
    if (!row) throw keyWithoutOrganization();
    if (!row.certificate_id) throw new NotFoundError('Certificate not found', { valid: false });
    const status = certificateStatus(row.status!, row.expires_on);
    sendJsonWithEtag(req, res, {
      valid: status === 'valid',
      recipient_name: row.recipient_name,
      program_title: row.program_title,
      organization_name: row.organization_name,
      issue_date: row.issue_date,
      certificate_number: row.certificate_number,
      certificate_status: status,
    });
  });
  return router;
}
