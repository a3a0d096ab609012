// The Edit view's watch of its object, while it is open, from the loaded resourceVersion: someone
// else's change shows before the user sends (API concepts: "Efficient detection of changes"). On
// the engine's informer: a dropped stream resumes from the last resourceVersion, 410 Gone relists
// (the object as the server has it now, or its absence), with backoff.
import { useQueryClient } from '@tanstack/react-query';
import { type Dispatch, useEffect } from 'react';
import { jsonNesting, MAX_NESTING } from '../../codecs';
import { parseJsonExact } from '../../codecs/json';
import { sharedMux } from '../../k8s/client';
import { invalidateObject, setObject } from '../../k8s/objects';
import { type ResourceRef, resourcePath } from '../../k8s/paths';
import type { JsonObject } from '../../k8s/patch';
import { inform } from '../../k8s/watch';
import type { EditAction } from './state';

function exactEventObject(raw: string | undefined, object: JsonObject): JsonObject {
  if (!raw) return object;
  const e = parseJsonExact(raw) as { object?: JsonObject };
  return e.object ?? object;
}

/** Watches `ref` from `baseRv` (restarting only when either changes); changes go to the object query, a deletion to the reducer. */
export function useObjectWatch(context: string, ref: ResourceRef | undefined, baseRv: string | undefined, dispatch: Dispatch<EditAction>): void {
  const queryClient = useQueryClient();
  const loadedPath = ref ? resourcePath(ref) : undefined;
  useEffect(() => {
    if (!ref?.name || !baseRv) return;
    const name = ref.name;
    return inform(
      { context, group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, name, resourceVersion: baseRv },
      {
        mux: sharedMux(),
        onChange: (objects, event) => {
          if (event) {
            // Re-read from the line's text with exact integers: the event's object came from JSON.parse.
            // An object grown deeper than the views walk is read again, which says so (codecs/nesting.ts).
            if ((event.type === 'MODIFIED' || event.type === 'ADDED') && jsonNesting(event.raw ?? '') > MAX_NESTING) void invalidateObject(queryClient, context, ref);
            else if (event.type === 'MODIFIED' || event.type === 'ADDED') setObject(queryClient, context, ref, exactEventObject(event.raw, event.object as JsonObject));
            else if (event.type === 'DELETED') dispatch({ type: 'server-deleted' });
            return;
          }
          // A relist: the object as it is now, or gone.
          const now = [...objects.values()].find((o) => o.metadata?.name === name);
          // (Read again rather than taken from the list, whose integers JSON.parse may have rounded.)
          if (now) void invalidateObject(queryClient, context, ref);
          else dispatch({ type: 'server-deleted' });
        },
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restart only when the base version changes
  }, [context, loadedPath, baseRv]);
}
