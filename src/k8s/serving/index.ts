export * from './matrix';
export * from './probe';
export * from './export';
export * from './writes';
