// ESLint flat config: typescript-eslint's recommended rules and React's rules of hooks (with
// exhaustive dependencies), plus the layering rules of ARCHITECTURE.md as import restrictions.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// YAML goes through the one codec (src/codecs/yaml.ts: js-yaml, YAML 1.1 aware, apply bodies with
// `on`/`yes` keys kept strings). The `yaml` package is not a dependency of ours: it resolves only
// because monaco-yaml brings it.
const noYamlPackage = { name: 'yaml', message: "use the one YAML codec (src/codecs/yaml.ts), not the 'yaml' package" };
const noYamlSubpath = { regex: '^yaml/', message: "use the one YAML codec (src/codecs/yaml.ts), not the 'yaml' package" };

/** no-restricted-imports with the bans that hold everywhere, plus a block's own patterns. */
function restrict(patterns = []) {
  return { 'no-restricted-imports': ['error', { paths: [noYamlPackage], patterns: [noYamlSubpath, ...patterns] }] };
}

/** A relative import of one of `floors` from inside src/<floor>/. */
function above(floors, message) {
  return { regex: `^(\\.\\./)+(${floors.join('|')})(/|$)`, message };
}

// src/ imports nothing from proxy/; its tests may start the real control plane (proxy/cluster).
const noProxy = { regex: '^(\\.\\./)+proxy/', message: 'src/ imports nothing from proxy/ (share types through protocol/)' };

/** The rule blocks of one floor of src/: production files, then its tests (which may reach proxy/cluster). */
function layer(floor, patterns, { testsFollow = true } = {}) {
  const tests = `src/${floor}/**/*.test.{ts,tsx}`;
  return [
    { files: [`src/${floor}/**/*.{ts,tsx}`], ignores: [tests], rules: restrict([...patterns, noProxy]) },
    { files: [tests], rules: restrict(testsFollow ? patterns : []) },
  ];
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', '.cluster/', 'bench/.*.mts', '.cluster-*/', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Empty catch blocks are deliberate where a comment says why (best-effort cleanup).
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Byte and text sniffing (hex views, protobuf field names, header filters) matches control
      // characters on purpose.
      'no-control-regex': 'off',
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
  // Layers point down (ARCHITECTURE.md): app -> features -> {routing, k8s, ui, codecs}; k8s -> codecs;
  // ui -> codecs; routing and codecs import nothing of ours. proxy/ and src/ share only protocol/.
  // Flat config replaces a rule's options per file rather than merging them, so every block
  // below repeats the bans that hold everywhere (restrict()).
  { files: ['**/*.{ts,tsx,js,mjs}'], rules: restrict() },
  ...layer('app', []),
  ...layer('features', [
    { group: ['**/app/*', '**/app'], message: 'features must not import the app layer (ARCHITECTURE.md)' },
    // '../<feature>/<module>' reaches into another feature: go through its index.ts instead.
    { regex: '^\\.\\./[a-z]+/.+', message: "import another feature only through its index.ts ('../<feature>')" },
  ]),
  ...layer('k8s', [above(['features', 'app', 'ui', 'routing'], 'k8s imports only codecs (ARCHITECTURE.md)')]),
  ...layer('ui', [above(['features', 'app', 'k8s', 'routing'], 'ui is presentational: it imports only codecs, and declares the shapes it draws (ARCHITECTURE.md)')]),
  ...layer('routing', [above(['features', 'app', 'k8s', 'ui', 'codecs'], 'routing imports nothing of ours (ARCHITECTURE.md)')]),
  // codecs' *.server.test.ts reach the real server through k8s/client, so only its production
  // files are held to the floor.
  ...layer('codecs', [
    above(['features', 'app', 'k8s', 'ui', 'routing'], 'codecs are pure: bytes <-> values, no I/O, no upper layers (ARCHITECTURE.md)'),
    { group: ['react'], message: 'codecs are pure: bytes <-> values, no I/O, no upper layers (ARCHITECTURE.md)' },
  ], { testsFollow: false }),
  {
    files: ['proxy/**/*.ts'],
    rules: restrict([{ regex: '^\\.\\./\\.\\./src/', message: 'proxy/ imports nothing from src/ (share types through protocol/)' }]),
  },
);
