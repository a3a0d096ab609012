// Follow a collection (or one object of it, by fieldSelector) live: list, then watch from the
// list's resourceVersion, keeping a map of the objects. Views that show something happening (a
// deletion cascading through dependents, managedFields moving between managers) use it; the Watch
// view has the full machinery (start modes, bookmarks, timelines), this is the plain informer
// pattern. When a watch ends or fails (410 Gone after compaction, a dropped connection), it lists
// again: the map is then the list's, and the caller is told.
import { kubeJson } from '../client';
import type { MuxClient } from '../client/mux';
import { objectKey } from './reducer';
import { openWatch } from './stream';
import type { KubeObject, WatchEventType } from './types';

export interface FollowOptions {
  mux: MuxClient;
  context: string;
  /** Collection path, e.g. `/apis/apps/v1/namespaces/demo/replicasets`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Every change: the objects now, and the event that made it (undefined for a (re)list). */
  onChange: (objects: ReadonlyMap<string, KubeObject>, event?: { type: WatchEventType; object: KubeObject }) => void;
  onError?: (error: unknown) => void;
}

/** Starts following; returns the function that stops it. */
export function followCollection(opts: FollowOptions): () => void {
  const abort = new AbortController();
  let objects = new Map<string, KubeObject>();
  const query = (extra: Record<string, string>) => {
    const p = new URLSearchParams(extra);
    if (opts.labelSelector) p.set('labelSelector', opts.labelSelector);
    if (opts.fieldSelector) p.set('fieldSelector', opts.fieldSelector);
    return `${opts.path}?${p.toString()}`;
  };
  void (async () => {
    while (!abort.signal.aborted) {
      try {
        const list = await kubeJson<{ metadata?: { resourceVersion?: string }; items?: KubeObject[] }>({ context: opts.context, path: query({}), signal: abort.signal });
        objects = new Map((list.items ?? []).map((o) => [objectKey(o), o]));
        opts.onChange(objects);
        const w = await openWatch({ mux: opts.mux, context: opts.context, path: query({ watch: '1', resourceVersion: list.metadata?.resourceVersion ?? '', allowWatchBookmarks: 'true' }), signal: abort.signal });
        abort.signal.addEventListener('abort', () => w.close(), { once: true });
        for await (const e of w.events) {
          if (e.type === 'BOOKMARK') continue;
          if (e.type === 'ERROR') break; // e.g. 410 Gone inside the stream: list again.
          objects = new Map(objects);
          if (e.type === 'DELETED') objects.delete(objectKey(e.object));
          else objects.set(objectKey(e.object), e.object);
          opts.onChange(objects, { type: e.type, object: e.object });
        }
      } catch (e) {
        if (abort.signal.aborted) return;
        opts.onError?.(e);
      }
      // Before listing again: a short pause, so that a failing server is not hammered.
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return () => abort.abort();
}
