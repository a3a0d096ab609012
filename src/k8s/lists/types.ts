// Wire shapes of the list responses this feature reads: meta.k8s.io/v1 Table, ListMeta, and the
// items of PartialObjectMetadataList or a full list. Only the fields we use are typed.

/** metav1.ListMeta. `remainingItemCount` is only set when the server can count what is left, which it cannot under a label or field selector. */
import { isTableBody } from '../../codecs/mediaTypes';

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** One column as the server defines it (metav1.TableColumnDefinition). */
export interface TableColumnDefinition {
  name: string;
  /** An OpenAPI type: `string`, `integer`, `number`, `boolean`, `date`. */
  type: string;
  /** An OpenAPI format; `name` marks the column holding the object's name. */
  format: string;
  description: string;
  /** 0 for the default view; greater than 0 only in the wide view (kubectl `-o wide`). */
  priority: number;
}

export interface TableRow {
  cells: unknown[];
  conditions?: unknown[];
  /** Absent or null with includeObject=None; a PartialObjectMetadata with Metadata; the object with Object. */
  object?: { metadata?: ObjectMetaLite } | null;
}

export interface Table {
  kind: 'Table';
  apiVersion: string;
  metadata: ListMeta;
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

export interface ObjectMetaLite {
  name?: string;
  namespace?: string;
  creationTimestamp?: string;
}

/** A list of any kind: PodList, PartialObjectMetadataList, ... */
export interface AnyList {
  kind?: string;
  apiVersion?: string;
  metadata?: ListMeta;
  items?: { metadata?: ObjectMetaLite }[];
}

export function isTable(body: unknown): body is Table {
  return isTableBody(body) && Array.isArray((body as { rows?: unknown }).rows);
}
