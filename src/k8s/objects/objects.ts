// One query per object, shared by every view that shows a single object (Lists' object pane,
// Edit, Ownership), so that a write in one view, or a watch event, updates what all of them show.
// Views that write put the server's answer into the cache (setObject) instead of re-reading.
import { type QueryClient, queryOptions, skipToken } from '@tanstack/react-query';
import { kubeJsonExact } from '../client';
import { type ResourceRef, resourcePath } from '../paths';

export interface LiveObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; uid?: string; managedFields?: unknown[]; [k: string]: unknown };
  [k: string]: unknown;
}

export function objectQueryKey(context: string, ref: ResourceRef): readonly unknown[] {
  return ['k8s', context, 'object', ref.group, ref.version, ref.resource, ref.namespace ?? '', ref.name ?? ''];
}

/** The object's query; without a ref (no object named yet, or not yet known where) it is skipped. */
export const objectQuery = <T extends LiveObject = LiveObject>(context: string, ref: ResourceRef | undefined) =>
  queryOptions({
    queryKey: ref ? objectQueryKey(context, ref) : ['k8s', context, 'object'],
    // A plain GET returns managedFields; only table and partial-object responses drop them.
    // Exact integers (int64 beyond 2^53 as bigint): the Edit view writes what it read back.
    queryFn: ref ? ({ signal }) => kubeJsonExact<T>({ context, path: resourcePath(ref), signal }) : skipToken,
    // Re-read when a view mounts (staleTime 0): a view opened after a write elsewhere shows the
    // newer object. Not on window focus: a re-read under an open editor is the watch's job.
    refetchOnWindowFocus: false,
    retry: false,
  });

/** Stores the server's answer to a write (or a watch event) as the current object. */
export function setObject(client: QueryClient, context: string, ref: ResourceRef, object: LiveObject): void {
  client.setQueryData(objectQueryKey(context, ref), object);
}

/** After a delete: the next read tells whether the object is gone or held by finalizers. */
export function invalidateObject(client: QueryClient, context: string, ref: ResourceRef): Promise<void> {
  return client.invalidateQueries({ queryKey: objectQueryKey(context, ref) });
}
