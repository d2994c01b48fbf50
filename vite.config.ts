import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is built once and served by both transports (Electron app:// protocol and
// the browser-mode host); relative asset URLs keep it origin-agnostic.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
});
