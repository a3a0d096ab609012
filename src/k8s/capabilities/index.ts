export * from './capabilities';
