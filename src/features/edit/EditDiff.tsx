// Monaco's diff editor for the edit view: a dry-run preview, before/after of a write, or your edit
// against the server's newer version. Importing ui/MonacoEditor configures the bundled Monaco
// (loader.config and workers) before the DiffEditor mounts, as the watch view's diff does.
import { DiffEditor } from '@monaco-editor/react';
import '../../ui/MonacoEditor';

export function EditDiff({ original, modified, label, originalTitle, modifiedTitle }: { original: string; modified: string; label: string; originalTitle: string; modifiedTitle: string }) {
  const dark = document.documentElement.dataset.theme === 'dark';
  return (
    <figure className="edit-diff" aria-label={label}>
      <figcaption className="row small muted">
        <span className="edit-diff-side">← {originalTitle}</span>
        <span className="edit-diff-side">→ {modifiedTitle}</span>
      </figcaption>
      <DiffEditor
        height="340px"
        language="yaml"
        theme={dark ? 'vs-dark' : 'vs'}
        original={original}
        modified={modified}
        options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, automaticLayout: true }}
      />
    </figure>
  );
}
