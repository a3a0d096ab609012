// The audit events of exchanges (live from the explorer server, or imported), APF names, and what
// the events say of admission and latency.
export * from './audit';
export * from './apf';
export * from './admission';
export * from './latency';
