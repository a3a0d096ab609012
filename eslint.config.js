// ESLint flat config: typescript-eslint's recommended rules, React's rules of hooks (with
// exhaustive dependencies), and the layering rules of ARCHITECTURE.md on *resolved* paths
// (eslint-plugin-import-x with the TypeScript resolver): a rule about where a file may import from
// holds however the import is written (`../`, `../../x/../`, a dynamic `import()`), at any depth.
// `import-x/no-cycle` keeps the module graph a tree of floors; `npm run lint` also runs knip for
// exports that nothing imports (knip.json).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// YAML goes through the one codec (src/codecs/yaml.ts: js-yaml, YAML 1.1 aware, apply bodies with
// `on`/`yes` keys kept strings). The `yaml` package is not a dependency of ours: it resolves only
// because monaco-yaml brings it.
const noYamlPackage = { name: 'yaml', message: "use the one YAML codec (src/codecs/yaml.ts), not the 'yaml' package" };
const noYamlSubpath = { regex: '^yaml/', message: "use the one YAML codec (src/codecs/yaml.ts), not the 'yaml' package" };
const noReact = { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'React lives in app/, features/, ui/ and routing/ only (ARCHITECTURE.md)' };

const FEATURES = ['console', 'deletion', 'discovery', 'edit', 'encodings', 'lessons', 'lists', 'ownership', 'record', 'serving', 'status', 'watch', 'welcome'];
const TESTS = ['**/*.test.{ts,tsx}'];
const TEST_SUPPORT = ['src/k8s/testing.ts', 'src/k8s/record/testing.ts', 'src/**/*.testkit.ts', 'src/k8s/patch/serverTestKit.ts', 'src/features/edit/differentialCases.ts'];

/** A zone of import-x/no-restricted-paths: files under `target` may not import anything under `from`. */
const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });
const floor = (name) => `./src/${name}`;
const below = (f, others, message) => others.map((o) => zone(floor(f), floor(o), message));

// Production files of src/: arrows point down only (ARCHITECTURE.md).
const srcZones = [
  zone('./src', './proxy', 'src/ imports nothing from proxy/ (share types through protocol/)'),
  ...below('features', ['app'], 'features must not import the app layer (ARCHITECTURE.md)'),
  ...below('k8s', ['app', 'features', 'ui', 'routing'], 'k8s imports only codecs and protocol (ARCHITECTURE.md)'),
  ...below('ui', ['app', 'features', 'k8s', 'routing'], 'ui is presentational: it imports only codecs, and declares the shapes it draws (ARCHITECTURE.md)'),
  ...below('routing', ['app', 'features', 'k8s', 'ui', 'codecs'], 'routing imports nothing of ours (ARCHITECTURE.md)'),
  ...below('codecs', ['app', 'features', 'k8s', 'ui', 'routing'], 'codecs are pure: bytes <-> values, no I/O, no upper layers (ARCHITECTURE.md)'),
  // The transport knows nothing of recording: k8s/record plugs into its hooks (installRecordingHooks, from app/).
  zone('./src/k8s/client', './src/k8s/record', 'k8s/client knows nothing of k8s/record: recording registers itself through transportHooks.ts'),
  // A feature reaches another only through its index.ts (link builders), at any depth of either.
  ...FEATURES.map((f) => zone(`./src/features/${f}`, './src/features', "import another feature only through its index.ts ('../<feature>')", [`./${f}`, ...FEATURES.filter((o) => o !== f).map((o) => `./${o}/index.ts`)])),
];

const importRules = (zones, extra = {}) => ({
  'import-x/no-restricted-paths': ['error', { zones }],
  'import-x/no-cycle': ['error', { ignoreExternal: true }],
  ...extra,
});

/** no-restricted-imports with the bans that hold everywhere, plus a block's own patterns. */
function restrict(patterns = []) {
  return { 'no-restricted-imports': ['error', { paths: [noYamlPackage], patterns: [noYamlSubpath, ...patterns] }] };
}

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'bin/', 'node_modules/', 'test-results/', 'playwright-report/', '.cluster/', 'bench/.*.mts', '.cluster-*/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Empty catch blocks are deliberate where a comment says why (best-effort cleanup).
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Byte and text sniffing (hex views, protobuf field names, header filters) matches control
      // characters on purpose.
      'no-control-regex': 'off',
      ...restrict(),
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Tests read loosely typed JSON from the real server.
    files: ['**/*.test.{ts,tsx}', 'proxy/src/test-support.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // src/ production code runs in the browser: no node:* anywhere, React only on the React floors.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: [...TESTS, ...TEST_SUPPORT],
    rules: importRules(srcZones, { 'import-x/no-nodejs-modules': 'error' }),
  },
  { files: ['src/k8s/**/*.ts', 'src/codecs/**/*.ts'], ignores: [...TESTS, ...TEST_SUPPORT], rules: restrict([noReact]) },
  // Tests of src/ may start the real control plane (proxy/cluster) and use Node; the floors still hold.
  // (codecs' *.server.test.ts reach the real server through k8s/client, so only its production files
  // are held to the codecs floor.)
  {
    files: [...TESTS.map((t) => `src/${t}`), ...TEST_SUPPORT],
    rules: importRules([
      ...srcZones.filter((z) => z.from !== './proxy' && z.target !== floor('codecs')),
      zone('./src', './proxy/src', 'src/ tests reach the proxy only through proxy/cluster/ and proxy/src/server.ts', ['./server.ts']),
    ]),
  },
  // protocol/ is what both sides share: pure, imports neither side, no Node, no React.
  {
    files: ['protocol/**/*.ts'],
    ignores: TESTS,
    rules: { ...importRules([zone('./protocol', './src', 'protocol/ imports neither side'), zone('./protocol', './proxy', 'protocol/ imports neither side')], { 'import-x/no-nodejs-modules': 'error' }), ...restrict([noReact]) },
  },
  // proxy/, at every depth, imports nothing from src/ and no React.
  {
    files: ['proxy/**/*.{ts,mjs}'],
    rules: {
      ...importRules([
        zone('./proxy', './src', 'proxy/ imports nothing from src/ (share types through protocol/)'),
        // The packaging tool (proxy/package/build.ts) builds from the server; the server and the
        // control plane read only what the executable carries (embedded.ts), which imports neither.
        zone(['./proxy/src', './proxy/cluster'], './proxy/package', 'the server reads the executable only through proxy/package/embedded.ts', ['./embedded.ts']),
        zone('./proxy/package/embedded.ts', ['./proxy/src', './proxy/cluster'], 'embedded.ts is read by the server and the control plane: it imports neither'),
      ]),
      ...restrict([noReact]),
    },
  },
);
