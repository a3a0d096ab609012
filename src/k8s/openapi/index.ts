export * from './openapi';
export * from './hints';
export * from './jsonSchema';
