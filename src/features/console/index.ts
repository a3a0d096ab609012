// The console's public face for other features: how to link to it with a request filled in.
export { draftFromExtra, draftToExtra, requestToDraft } from './draft';
export { addToHistory } from './history';
export { requestAttributes } from './verb';
export { ExchangeView } from './ExchangeView';
export { DecodedBody } from './DecodedBody';
