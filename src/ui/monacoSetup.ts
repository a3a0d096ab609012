// Monaco as this app uses it: the editor core with its editor features, the JSON language (with
// its worker) and YAML through monaco-yaml (with its worker), and nothing else. The package's main
// entry (`monaco-editor`) registers every language and the TypeScript, CSS and HTML language
// services, whose workers Vite then emits (about 10 MB the app never runs); importing the parts keeps
// them out of dist/.
//
// JSON schemas for the editors are kept in one registry keyed by model path: monaco-yaml and the
// JSON language service each take one list of schemas with file patterns, so every editor that
// shows a schema-backed model adds its entry here and removes it when it goes.
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
// YAML's syntax colouring (monaco-yaml brings the language service, not the tokenizer).
import 'monaco-editor/languages/definitions/yaml/register';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { configureMonacoYaml, type JSONSchema } from 'monaco-yaml';
import YamlWorker from './yaml.worker?worker';

self.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    if (label === 'json') return new JsonWorker();
    if (label === 'yaml') return new YamlWorker();
    return new EditorWorker();
  },
};

export { monaco };

/**
 * The light theme of the diff editors: Monaco's `vs` with the token colours that fall under 4.5:1
 * on its removed/inserted highlights made darker (YAML keys, `type`, #008080 on the removed
 * characters' #ffcccb measured 3.35:1; numbers #098658 and comments #008000 fall short the same way).
 */
export const DIFF_LIGHT_THEME = 'explorer-diff-light';
monaco.editor.defineTheme(DIFF_LIGHT_THEME, {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'type', foreground: '005f5f' },
    { token: 'number', foreground: '065c3c' },
    { token: 'comment', foreground: '005f00' },
  ],
  colors: {},
});

/** The dark one: `vs-dark` with strings (#ce9178 on the inserted lines' #373d29: 4.26:1), keywords and comments lighter. */
export const DIFF_DARK_THEME = 'explorer-diff-dark';
monaco.editor.defineTheme(DIFF_DARK_THEME, {
  base: 'vs-dark',
  inherit: true,
  rules: [
    { token: 'string', foreground: 'd7a48a' },
    { token: 'keyword', foreground: '7ab0e0' },
    { token: 'comment', foreground: '8fc27a' },
  ],
  colors: {},
});

const schemas = new Map<string, { uri: string; fileMatch: string[]; schema: JSONSchema }>();

// monaco-yaml (through monaco-worker-manager) creates its worker with the createWebWorker options
// of Monaco before 0.5x ({ moduleId, label, createData }); Monaco 0.57 takes { worker } instead,
// and its own languages start a worker by posting a first message, then the createData. This
// adapter does the same for monaco-yaml's worker.
type LegacyWorkerOptions = { label?: string; moduleId?: string; createData?: unknown };
const createWebWorker = (opts: Parameters<typeof monaco.editor.createWebWorker>[0] | LegacyWorkerOptions) => {
  if ('worker' in opts) return monaco.editor.createWebWorker(opts);
  const worker = Promise.resolve(self.MonacoEnvironment!.getWorker!('workerMain.js', opts.label ?? 'yaml')).then((w) => {
    w.postMessage('ignore');
    w.postMessage(opts.createData);
    return w;
  });
  return monaco.editor.createWebWorker({ worker });
};
const monacoForYaml = { ...monaco, editor: { ...monaco.editor, createWebWorker } } as unknown as typeof monaco;

// YAML 1.2, as the explorer's own YAML codec reads it: the only editor with a schema is the Edit
// view's object editor, whose text is parsed here and sent as the body built from that reading
// (JSON, or YAML quoted by toYaml), so a plain `yes` is sent as the string "yes" and schema checks
// must see a string. Where a YAML text goes out as typed (the console, the Patch body), the views
// list what the server's YAML 1.1 reading makes of it (codecs/yaml yamlVersionDifferences).
const yaml = configureMonacoYaml(monacoForYaml, { enableSchemaRequest: false, validate: true, hover: true, completion: true, format: { enable: false }, yamlVersion: '1.2', schemas: [] });

function publish(): void {
  const list = [...schemas.values()];
  void yaml.update({ schemas: list });
  // The JSON worker validates every JSON model against the schemas whose fileMatch names it; the
  // others (patch bodies, console bodies) get syntax checks only, as before.
  jsonDefaults.setDiagnosticsOptions({ validate: true, allowComments: false, enableSchemaRequest: false, schemaValidation: 'warning', schemas: list });
}

/** Attaches a JSON schema to the model at `modelPath` (a URI such as `file:///kube/edit-1.yaml`); returns the detach function. */
export function attachSchema(modelPath: string, jsonSchema: object): () => void {
  const schema = jsonSchema as JSONSchema;
  const uri = monaco.Uri.parse(modelPath).toString();
  // The schema's own URI must not carry a fragment: JSON Schema resolvers read one as an anchor.
  const entry = { uri: `${uri.replace(/\.(yaml|json|txt)$/, '')}.schema.json`, fileMatch: [uri], schema };
  schemas.set(modelPath, entry);
  publish();
  return () => {
    if (schemas.get(modelPath) === entry) {
      schemas.delete(modelPath);
      publish();
    }
  };
}
