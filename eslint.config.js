// ESLint flat config: typescript-eslint's recommended rules and React's rules of hooks (with
// exhaustive dependencies), plus the layering rules of ARCHITECTURE.md as import restrictions.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', '.cluster/', 'bench/.*.mts', '**/*.d.ts'] },
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
  // Layers point down: app -> features -> {k8s, ui, routing} -> codecs; proxy/ and src/ share only protocol/.
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/app/*', '**/app'], message: 'features must not import the app layer (ARCHITECTURE.md)' },
          // '../<feature>/<module>' reaches into another feature: go through its index.ts instead.
          { regex: '^\\.\\./[a-z]+/.+', message: "import another feature only through its index.ts ('../<feature>')" },
        ],
      }],
    },
  },
  {
    files: ['src/k8s/**/*.{ts,tsx}', 'src/ui/**/*.{ts,tsx}', 'src/routing/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/**', '**/app/**', '**/app'], message: 'lower layers must not import features or the app (ARCHITECTURE.md)' }] }],
    },
  },
  {
    files: ['src/codecs/**/*.{ts,tsx}'],
    ignores: ['src/codecs/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/features/**', '**/app/**', '**/k8s/**', '**/ui/**', 'react'], message: 'codecs are pure: bytes <-> values, no I/O, no upper layers (ARCHITECTURE.md)' }] }],
    },
  },
  {
    files: ['proxy/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./\\.\\./src/', message: 'proxy/ imports nothing from src/ (share types through protocol/)' }] }],
    },
  },
);
