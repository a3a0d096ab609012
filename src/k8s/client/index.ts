export * from './kubeFetch';
export * from './token';
