// Watch events as the API server sends them (metav1.WatchEvent in JSON), and the few object
// fields the watch machinery reads. resourceVersion is an opaque string: the API only promises
// that equal strings mean the same version, so it is never parsed or ordered here.

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export const WATCH_EVENT_TYPES: readonly WatchEventType[] = ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'];

/** One wire type for managedFields entries: the fields module's. */
import type { ManagedFieldsEntry } from '../fields/ownership';
import { isTableBody } from '../../codecs/mediaTypes';
export type { ManagedFieldsEntry };

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  managedFields?: ManagedFieldsEntry[];
  [k: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [k: string]: unknown;
}

/** A meta.k8s.io/v1 Table row; in a watch with as=Table each event carries a Table of one row. */
export interface TableRow {
  cells: unknown[];
  object?: KubeObject;
  conditions?: unknown[];
}
/** Column definitions are the list feature's (one wire type, metav1.TableColumnDefinition). */
export type { TableColumnDefinition as TableColumn } from '../lists/types';
import type { TableColumnDefinition as TableColumn } from '../lists/types';
export interface Table extends KubeObject {
  kind: 'Table';
  columnDefinitions?: TableColumn[];
  rows?: TableRow[];
}

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

/** The annotation the server puts on the bookmark that ends a streaming list's initial events. */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

export function isTable(o: KubeObject | undefined): o is Table {
  return isTableBody(o);
}
