// An informer-like store on the list-watch loop (client-go: a reflector feeding a store): the
// objects of a collection (or of one object, by name) kept live from a list and the events after
// it, for views that show something happening (a deletion cascading through dependents,
// managedFields moving between managers, the Edit view's object changing under the user). The
// same recovery as a watch pane: resume from the last resourceVersion after a drop, relist after
// 410 Gone, back off with jitter, Retry-After honoured. Events go through the pure reducer
// (applyWatchEventInPlace): O(1) per event, no copy of the map.
import { type EventOrigin, type Listed, ListWatchLoop, type LoopOptions } from './loop';
import type { NoteKind, WatchSpec } from './plan';
import { applyWatchEventInPlace, eventSubject, objectKey } from './reducer';
import type { ReceivedEvent } from './stream';
import type { KubeObject, WatchEventType } from './types';

/** What an informer follows: a collection, filtered, from a list or from a resourceVersion. */
export type InformerSpec = Pick<WatchSpec, 'context' | 'group' | 'version' | 'resource' | 'namespace' | 'labelSelector' | 'fieldSelector' | 'name'> & {
  /** Start at this resourceVersion with a watch (no list); unset: list, then watch. */
  resourceVersion?: string;
};

export interface InformerOptions extends LoopOptions {
  /**
   * Every change: the objects now (the informer's live map: read it, do not keep it), and the
   * event that made it (with the event's line as sent, for a reader that needs exact integers);
   * no event after a (re)list replaced the state.
   */
  onChange: (objects: ReadonlyMap<string, KubeObject>, event?: { type: WatchEventType; object: KubeObject; raw?: string }) => void;
  /** What went wrong, in words, when an attempt failed; undefined once a stream is open again. */
  onProblem?: (message: string | undefined) => void;
}

export class Informer extends ListWatchLoop {
  private objects = new Map<string, KubeObject>();

  constructor(
    spec: InformerSpec,
    private readonly opts: InformerOptions,
  ) {
    // Bookmarks keep the resume point fresh in a quiet collection, so that a resume after a drop
    // is less likely to meet 410 Gone.
    super({ ...spec, mode: spec.resourceVersion ? 'watch-exact' : 'list-watch', bookmarks: true, asTable: false }, opts);
  }

  stop(): void {
    this.halt();
  }

  protected hasObjects(): boolean {
    return this.objects.size > 0;
  }

  protected listed(l: Listed): void {
    const next = new Map<string, KubeObject>();
    for (const o of l.items) next.set(objectKey(eventSubject(o)), o);
    this.objects = next;
    this.opts.onChange(this.objects);
  }

  protected opened(): void {
    this.opts.onProblem?.(undefined);
  }

  protected received(ev: ReceivedEvent, _origin: EventOrigin): void {
    const effect = applyWatchEventInPlace(this.objects, ev);
    if (effect.op !== 'none') this.opts.onChange(this.objects, { type: ev.type, object: ev.object, raw: ev.raw });
  }

  protected bookmark(): void {
    // Only moves the resume point (the loop keeps it).
  }

  protected errorEvent(): void {
    // The loop classifies it (410: relist; otherwise retried) and notes why.
  }

  protected note(kind: NoteKind, message: string): void {
    if (kind === 'error' || kind === 'idle') this.opts.onProblem?.(message);
  }

  protected changed(): void {
    // Nothing to render but the objects, which onChange hands over.
  }
}

/** Starts an informer; returns the function that stops it. */
export function inform(spec: InformerSpec, opts: InformerOptions): () => void {
  const i = new Informer(spec, opts);
  i.start();
  return () => i.stop();
}
