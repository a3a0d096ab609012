export * from './types';
export * from './continueToken';
export * from './listClient';
