export { DeleteCollection } from './DeleteCollection';
export { DeletionPanel } from './DeletionPanel';
export { DeletionWatch } from './DeletionWatch';
