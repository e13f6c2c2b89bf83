import type { RequestHandler } from 'express';
import type { Knex } from '@platform/service-kit';
import { ensurePartner } from './partners.repository';

/** After `requireAdmin`: the JWT's organization exists as a partner from its first request on. */
export function ensurePartnerFromClaims(db: Knex): RequestHandler {
  return async (req, _res, next) => {
    if (!req.admin) return next();
    await ensurePartner(db, { id: req.admin.org, name: req.admin.org_name });
    next();
  };
}
