export * from './types';
export * from './continueToken';
export * from './listClient';
export * from './pager';
export * from './rowStore';
