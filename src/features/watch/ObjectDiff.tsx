// The per-event diff in Monaco's diff editor. Importing ui/MonacoEditor configures the locally
// bundled Monaco (loader.config and the worker environment) before the DiffEditor mounts.
import { DiffEditor } from '@monaco-editor/react';
import '../../ui/MonacoEditor';
import type { KubeObject } from '../../k8s/watch/types';

export function ObjectDiff({ previous, next }: { previous?: KubeObject; next?: KubeObject }) {
  const dark = document.documentElement.dataset.theme === 'dark';
  return (
    <div className="watch-diff" aria-label="Object diff">
      <DiffEditor
        height="320px"
        language="json"
        theme={dark ? 'vs-dark' : 'vs'}
        original={previous ? JSON.stringify(previous, null, 2) : ''}
        modified={next ? JSON.stringify(next, null, 2) : ''}
        options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, automaticLayout: true }}
      />
    </div>
  );
}
