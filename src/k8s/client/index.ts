export * from './kubeFetch';
export * from './kubeRead';
export * from './token';
export * from './mux';
export * from './health';
export * from './retry';
export * from './exchange';
export * from './userAgent';
