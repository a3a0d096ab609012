import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Vite 8 transforms JSX itself (oxc); React's automatic runtime needs no plugin.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: {
    alias: [
      // monaco-yaml's worker (through monaco-worker-manager) imports Monaco's worker by its file
      // path, which monaco-editor's exports map does not expose since 0.5x.
      { find: /^monaco-editor\/esm\/vs\/(.*)$/, replacement: `${fileURLToPath(new URL('node_modules/monaco-editor/esm/vs/', import.meta.url))}$1` },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 4096,
  },
  server: {
    // The proxy runs Vite in middleware mode on its own origin (npm run dev); never standalone.
    host: '127.0.0.1',
  },
});
