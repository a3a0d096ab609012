export * from './recorder';
export * from './redact';
export * from './har';
export * from './replay';
export * from './versions';
export * from './install';
export * from './landing';
