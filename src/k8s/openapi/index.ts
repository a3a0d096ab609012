export * from './openapi';
export * from './hints';
export * from './jsonSchema';
export * from './questions';
export { schemaAnswerQuery } from './worker/client';
