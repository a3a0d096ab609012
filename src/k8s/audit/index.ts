export * from './admission';
export * from './latency';
export { parseGoDuration } from './goDuration';
