export * from './paths';
export * from './safety';
