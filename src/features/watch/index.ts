// The watch feature's public face for other features: how to link to watch panes.
export { type PaneConfig, PANES_KEY, serializePanes } from './panes';
