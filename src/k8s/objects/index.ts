export * from './objects';
