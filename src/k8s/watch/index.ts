// The list-watch engine's public API (see ARCHITECTURE.md, "The data path of a watch event"):
//  - plan.ts: the pure decisions (next request, what an ending means, backoff), table-tested;
//  - loop.ts: the I/O loop on top of them (ListWatchLoop), with honest states;
//  - session.ts: a watch pane's session (timeline, counts, notifications) on the loop;
//  - informer.ts: an object map kept live on the loop, for other views (Edit, deletion, ownership);
//  - reducer.ts: the pure reducer every event goes through;
//  - worker/: the same session run in a Web Worker, mirrored in the page.
export { collectionPath, START_MODES, type StartMode, type WatchSpec } from './plan';
export { DEFAULT_OBJECT_BYTES, ObjectSummary, stateCells, stateVersion, type ObjectDetail, type EventEntry, type EventSummary, type NoteEntry, type PaneEntry, type PaneSnapshot, type TimelineEntry } from './session';
export { inform } from './informer';
export { openWatch } from './stream';
export { WATCH_EVENT_TYPES, type KubeObject, type ManagedFieldsEntry, type WatchEventType } from './types';
export { createWatchSession, type WatchSessionHandle } from './worker/client';
export { isPartial } from './worker/protocol';
export { Ring } from './timeline';
