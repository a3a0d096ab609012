export * from './overview';
export * from './readyz';
