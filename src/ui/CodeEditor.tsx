import { lazy, Suspense } from 'react';

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: 'json' | 'yaml' | 'plaintext';
  /** Accessible name of the editor's text area. */
  ariaLabel: string;
  height?: string;
  readOnly?: boolean;
  /** Ctrl/Cmd+Enter inside the editor (Monaco keeps that key from reaching the page). */
  onSubmit?: () => void;
  /**
   * A JSON schema for the text (YAML or JSON): completion, hover and validation marks come from
   * it. Without one the editor checks syntax only.
   */
  jsonSchema?: object;
}

// Monaco is large and needs a DOM and workers: load it only when an editor is shown, so that unit
// tests (and views without an editor) never boot it.
const Monaco = lazy(() => import('./MonacoEditor').then((m) => ({ default: m.MonacoEditor })));

export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<p className="muted small">Loading the editor…</p>}>
      <Monaco {...props} />
    </Suspense>
  );
}
