export * from './openapi';
export * from './jsonSchema';
