import { Router } from 'express';
import { hashApiToken, noteApiKey, type Knex } from '@platform/service-kit';
import { invalidKey, wellFormedTokenOf } from '../api-keys/api-key-auth';
import { keyUsageRecorder } from '../api-keys/key-usage';
import { certificateStatus } from '../certificates/certificate-status';
import { normalizeVerificationCode } from '../certificates/verification-code';
import { publicApiRepository } from './public-api.repository';

/** `GET /api/v1/credits` and `GET /api/v1/verify/{code}`: the partner-facing API, kept to one query per request. */
export function publicApiRoutes(db: Knex): Router {
  const repository = publicApiRepository(db);
  const recordUse = keyUsageRecorder(db);
  const router = Router();

  router.get('/api/v1/credits', async (req, res) => {
    const row = await repository.credits(hashApiToken(wellFormedTokenOf(req)));
    if (!row) throw invalidKey();
    noteApiKey(res, row.key_id);
    recordUse(row.key_id);
    res.json({ organization: row.organization_name, balance: row.balance, plan: row.plan });
  });

  router.get('/api/v1/verify/:code', async (req, res) => {
    const tokenHash = hashApiToken(wellFormedTokenOf(req));
    const row = await repository.verification(tokenHash, normalizeVerificationCode(req.params.code as string));
    if (!row) throw invalidKey();
    noteApiKey(res, row.key_id);
    recordUse(row.key_id);
    if (!row.certificate_id) {
      res.status(404).json({ valid: false, error: 'Certificate not found', code: 'not_found' });
      return;
    }
    const status = certificateStatus(row.status!, row.expires_on);
    res.json({
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
