export * from './discovery';
export * from './unavailable';
