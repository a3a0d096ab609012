// The Kubernetes protobuf schemas for a view that decodes Protobuf (the console's body view, a
// Protobuf watch pane's opened event): loaded on first use, shared by every view once loaded.
import { useEffect, useState } from 'react';
import { type K8sSchema, loadedK8sSchema, loadK8sSchema } from '../codecs/protobuf';

/** The schemas once loaded (undefined until then, or while `wanted` is false), or why they could not be. */
export function useK8sSchema(wanted = true): { schema?: K8sSchema; error?: string } {
  const [state, setState] = useState<{ schema?: K8sSchema; error?: string }>(() => ({ schema: loadedK8sSchema() }));
  useEffect(() => {
    if (!wanted || state.schema) return;
    let live = true;
    loadK8sSchema().then(
      (schema) => live && setState({ schema }),
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [wanted, state.schema]);
  return state;
}
