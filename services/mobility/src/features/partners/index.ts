/** The partners feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { adminAccountOf, adminModeQuery, adminPartnerIdOf, withAdminMode } from './admin-account';
export { ensurePartnerFromClaims } from './partners.middleware';
export { createPartnersRepository } from './partners.repository';
export type { PartnersRepository } from './partners.repository';
