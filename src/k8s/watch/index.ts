// The list-watch engine's public API (see ARCHITECTURE.md, "The data path of a watch event"):
//  - plan.ts: the pure decisions (next request, what an ending means, backoff), table-tested;
//  - loop.ts: the I/O loop on top of them (ListWatchLoop), with honest states;
//  - session.ts: a watch pane's session (timeline, counts, notifications) on the loop;
//  - informer.ts: an object map kept live on the loop, for other views (Edit, deletion, ownership);
//  - reducer.ts: the pure reducer every event goes through;
//  - worker/: the same session run in a Web Worker, mirrored in the page.
export { backoff, classifyEnding, collectionPath, listPath, nextRequest, START_MODES, watchPath, type Ending, type NextRequest, type Outcome, type StartMode, type WatchSpec } from './plan';
export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, type EventOrigin, type SessionState } from './loop';
export { DEFAULT_OBJECT_BYTES, ObjectSummary, stateCells, stateVersion, WatchSession, type BodyStats, type ObjectDetail, type EventEntry, type EventSummary, type NoteEntry, type PaneEntry, type PaneSnapshot, type PartialEvent, type SessionSnapshot, type TimelineEntry } from './session';
export { inform, Informer, type InformerSpec } from './informer';
export { applyWatchEvent, applyWatchEventInPlace, diffStates, objectKey, type StateDiff } from './reducer';
export { openWatch, type OpenWatch } from './stream';
export { WATCH_EVENT_TYPES, type KubeObject, type ManagedFieldsEntry, type WatchEventType } from './types';
export { createWatchSession, type WatchSessionHandle } from './worker/client';
export { isPartial } from './worker/protocol';
export { Ring, type RingView } from './timeline';
