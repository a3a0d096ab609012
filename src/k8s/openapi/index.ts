export * from './openapi';
export * from './hints';
