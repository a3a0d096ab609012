export { ConnectionStatus } from './ConnectionStatus';
