export * from './objects';
export * from './dependents';
