// Monaco's read-only diff editor, bundled (importing ./MonacoEditor configures the local Monaco and
// its workers before it mounts). One wrapper for every diff in the page, because of a teardown
// order bug: @monaco-editor/react 4.7 disposes the two text models before the diff widget that
// still holds them, and Monaco ≥ 0.51 then throws "TextModel got disposed before DiffEditorWidget
// model got reset" whenever a diff leaves the page (monaco-react issue #647). Here the library keeps
// its models (keepCurrent*Model), and a layout-effect cleanup — which React runs before the
// library's own passive cleanup — detaches them from the widget first and then disposes them.
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
import { useLayoutEffect, useRef } from 'react';
import './MonacoEditor';
import { DIFF_DARK_THEME, DIFF_LIGHT_THEME } from './monacoSetup';

type DiffWidget = Parameters<DiffOnMount>[0];

export function MonacoDiff({
  original,
  modified,
  language,
  height,
  originalLabel = 'before (read-only)',
  modifiedLabel = 'after (read-only)',
}: {
  original: string;
  modified: string;
  language: 'json' | 'yaml';
  height: string;
  /** Names of the two sides' text areas (without them each is an unlabelled input to a screen reader, and to axe). */
  originalLabel?: string;
  modifiedLabel?: string;
}) {
  const widget = useRef<DiffWidget | null>(null);
  useLayoutEffect(
    () => () => {
      const w = widget.current;
      widget.current = null;
      if (!w) return;
      const model = w.getModel();
      w.setModel(null);
      model?.original.dispose();
      model?.modified.dispose();
    },
    [],
  );
  const dark = document.documentElement.dataset.theme === 'dark';
  return (
    <DiffEditor
      height={height}
      language={language}
      theme={dark ? DIFF_DARK_THEME : DIFF_LIGHT_THEME}
      original={original}
      modified={modified}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(w) => {
        widget.current = w;
        // The diff options' originalAriaLabel/modifiedAriaLabel do not reach Monaco 0.57's edit
        // context (its input element kept an empty aria-label): named on each side's editor.
        w.getOriginalEditor().updateOptions({ ariaLabel: originalLabel });
        w.getModifiedEditor().updateOptions({ ariaLabel: modifiedLabel });
      }}
      options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, scrollBeyondLastLine: false, automaticLayout: true, originalAriaLabel: originalLabel, modifiedAriaLabel: modifiedLabel }}
    />
  );
}
