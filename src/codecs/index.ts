export * from './warnings';
export * from './mediaTypes';
export * from './hex';
export * from './text';
export * from './base64';
export { JsonError, nonFinitePath, parseJsonExact, toJson } from './json';
export { jsonNesting, MAX_NESTING, MAX_OBJECT_TEXT, NestingError, refuseDeepNesting, refuseOversizedObject } from './nesting';
export { fromYaml, fromYamlAll, serverScalar, YamlError, type YamlVersionDifference, yamlVersionDifferences } from './yaml';
