export * from './warnings';
export * from './mediaTypes';
export * from './hex';
export * from './text';
export * from './base64';
export { JsonError, nonFinitePath, parseJsonExact, toJson } from './json';
export { jsonNesting, MAX_NESTING, NestingError, refuseDeepNesting } from './nesting';
export { fromYaml, fromYamlAll, serverScalar, YamlError, type YamlVersionDifference, yamlVersionDifferences } from './yaml';
