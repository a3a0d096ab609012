import { defineConfig } from 'vite';

// Vite 8 transforms JSX itself (oxc); React's automatic runtime needs no plugin.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
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
