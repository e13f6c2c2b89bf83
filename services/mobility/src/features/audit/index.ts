/** The audit feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { listAuditLogResponse } from './audit.schema';
export { auditLogRoutes, mobilityAuditTrail } from './audit.routes';
