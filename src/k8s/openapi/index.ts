export * from './openapi';
export * from './hints';
export * from './jsonSchema';
export * from './questions';
export { askSchema, schemaAnswerQuery } from './worker/client';
