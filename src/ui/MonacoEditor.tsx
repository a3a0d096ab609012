// The Monaco editor, bundled: @monaco-editor/react would otherwise fetch Monaco from a CDN, which
// the page's CSP (script-src 'self') forbids and which an offline machine cannot reach. Workers
// are Vite worker chunks served from our own origin (monaco-editor's exports map `monaco-editor/*` to
// `esm/vs/*.js`, hence the paths without `esm/vs`).
import Editor, { loader } from '@monaco-editor/react';
import { useEffect, useId, useRef, useState } from 'react';
import type { CodeEditorProps } from './CodeEditor';
import { attachSchema, DIFF_DARK_THEME, DIFF_LIGHT_THEME, monaco } from './monacoSetup';

loader.config({ monaco });

// Monaco has one theme for all its editors: the same pair as the diff editors (monacoSetup.ts).
function currentTheme(): string {
  return document.documentElement.dataset.theme === 'dark' ? DIFF_DARK_THEME : DIFF_LIGHT_THEME;
}

export function MonacoEditor({ value, onChange, language, ariaLabel, height = '220px', readOnly, onSubmit, jsonSchema }: CodeEditorProps) {
  const [theme, setTheme] = useState(currentTheme);
  // A model path of its own, so that a schema applies to this editor's model and to no other.
  const id = useId().replace(/[^A-Za-z0-9]/g, '');
  const modelPath = `file:///kube/editor-${id}.${language === 'yaml' ? 'yaml' : language === 'json' ? 'json' : 'txt'}`;
  useEffect(() => (jsonSchema && language !== 'plaintext' ? attachSchema(modelPath, jsonSchema) : undefined), [modelPath, jsonSchema, language]);
  // The command is registered once; the ref lets it call the latest callback.
  const submit = useRef(onSubmit);
  submit.current = onSubmit;
  useEffect(() => {
    const obs = new MutationObserver(() => setTheme(currentTheme()));
    obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => obs.disconnect();
  }, []);
  return (
    <div style={{ border: '1px solid var(--border)', borderRadius: 4 }}>
      <Editor
        height={height}
        path={modelPath}
        language={language}
        value={value}
        theme={theme}
        onChange={(v) => onChange?.(v ?? '')}
        onMount={(editor) => {
          editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => submit.current?.());
        }}
        options={{
          ariaLabel,
          readOnly,
          minimap: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          tabSize: 2,
          wordWrap: 'on',
          automaticLayout: true,
          // Typed text stays as typed: no auto-closing pairs or indentation rewriting.
          autoClosingBrackets: 'never',
          autoClosingQuotes: 'never',
          autoIndent: 'none',
          formatOnPaste: false,
          formatOnType: false,
        }}
      />
      {/* Monaco keeps Tab for indenting until Ctrl+M (its tab-focus mode): said where it happens. */}
      {!readOnly && <p className="small muted monaco-tab-hint">Tab indents here; Ctrl+M, then Tab, moves the focus on.</p>}
    </div>
  );
}
