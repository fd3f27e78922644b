// The audit module's public entry for server code: the only file other modules and the roof may import from it
// (besides module.ts). Whatever is not exported here is private to the module; dependency-cruiser enforces it.
export { audited, openAudit, recordAuditEvent } from './server/audit.service.ts';
export { auditTrail } from './server/audit-trail.ts';
