import type { RequestHandler } from 'express';
import type { PartnersRepository } from './partners.repository';

/** After `requireAdmin`: the JWT's organization exists as a partner from its first request on. */
export function ensurePartnerFromClaims(partners: PartnersRepository): RequestHandler {
  return async (req, _res, next) => {
    if (!req.admin) return next();
    await partners.ensurePartner({ id: req.admin.org, name: req.admin.org_name });
    next();
  };
}
