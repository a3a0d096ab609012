export { DeletionPanel } from './DeletionPanel';
