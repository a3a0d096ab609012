// The per-event diff in Monaco's diff editor.
import type { KubeObject } from '../../k8s/watch';
import { MonacoDiff } from '../../ui/MonacoDiff';

export function ObjectDiff({ previous, next }: { previous?: KubeObject; next?: KubeObject }) {
  return (
    <div className="watch-diff" aria-label="Object diff">
      <MonacoDiff height="320px" language="json" original={previous ? JSON.stringify(previous, null, 2) : ''} modified={next ? JSON.stringify(next, null, 2) : ''} />
    </div>
  );
}
