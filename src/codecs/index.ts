export * from './warnings';
export * from './mediaTypes';
export * from './hex';
export * from './text';
export * from './base64';
export { yamlVersionDifferences } from './yaml';
export { jsonNesting, MAX_NESTING } from './nesting';
