// The console's public face for other features: how to link to it with a request filled in.
export { type Draft, draftFromExtra, draftToExtra, requestToDraft } from './draft';
export { addToHistory } from './history';
