export * from './fieldsV1';
export * from './ownership';
