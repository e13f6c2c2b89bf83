/** The audit feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { auditContract } from './audit.contract';
export { listAuditLogResponse } from './audit.schema';
export { auditHandlers } from './audit.handlers';
export { MOBILITY_AUDIT_SNAPSHOTS, mobilityAuditRecorder } from './audit.recorder';
