// The audit events of exchanges (live from the explorer server, or imported), and APF names.
export * from './audit';
export * from './apf';
