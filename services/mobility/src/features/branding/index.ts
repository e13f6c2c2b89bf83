/** The branding feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { brandingContract } from './branding.contract';
export { partnerBrandingResponse } from './branding.schema';
export { brandingHandlers } from './branding.handlers';
export { createBrandingRepository, type BrandingRepository } from './branding.repository';
