// The audit panel, for the views that show exchanges (console, Edit view writes, lessons, recordings).
export { AuditPanel } from './AuditPanel';
