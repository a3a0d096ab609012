// The audit panel, for the views that show exchanges (console, Edit view writes, lessons, recordings).
export { AuditPanel, type AuditPanelProps } from './AuditPanel';
export { AuditImport } from './AuditImport';
