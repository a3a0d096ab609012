export * from './access';
export * from './rules';
